export { Checkbox } from './checkbox';
export { ErrorText } from './error-text';
export { Field, type FieldProps } from './field';
export { FormAlert } from './form-alert';
export { SubmitButton } from './submit-button';
