import { days, minutes } from './sms-copy';
import type { ArticleSection, PageMeta } from './types';

/**
 * Every wording of the notice, oldest first: the day it took effect and the fingerprint of
 * its text (content.test.ts computes it with placeholder settings). A change of the text
 * fails that test until a new entry is added here, and the page shows the newest entry's
 * day as "Ultimo aggiornamento": the date follows the text.
 */
export const PRIVACY_NOTICE_VERSIONS: readonly { effective: `${number}-${number}-${number}`; fingerprint: string }[] = [
  { effective: '2026-11-27', fingerprint: '1b73a96e742a7c5c' },
  // The ad platforms as recipients of conversions, with marketing cookies only (decision 061).
  { effective: '2026-11-27', fingerprint: '9ca85c1bea8ee509' },
  // Meta gets email and phone pseudonymised (SHA-256, which it matches), not "encrypted"; Google neither (decision 061).
  { effective: '2026-11-27', fingerprint: '4049d30d3a188473' },
];

/** The values of the configuration the notice states. */
export interface PrivacySettings {
  /** RETENTION_MONTHS */
  leadMonths: number;
  /** ANALYTICS_RETENTION_MONTHS */
  analyticsMonths: number;
  /** GUIDE_LINK_TTL_DAYS */
  linkDays: number;
  /** SMS_HELD_EMAIL_AFTER_MINUTES */
  heldEmailMinutes: number;
}

const ITALIAN_DATE = new Intl.DateTimeFormat('it-IT', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * Information notice under art. 13 GDPR and art. 19 of the Swiss nFADP (LPD).
 * The controller, the retention periods and the link's validity come from the
 * configuration, so the text always matches what the system actually does.
 */
export function privacyPolicy(
  controller: {
    name: string;
    address: string;
    email: string;
    vatNumber?: string;
  },
  retention: PrivacySettings,
): {
  meta: PageMeta;
  heading: string;
  updated: string;
  sections: ArticleSection[];
} {
  const vat = controller.vatNumber ? `, partita IVA ${controller.vatNumber}` : '';

  const sections: ArticleSection[] = [
    {
      heading: 'Titolare del trattamento',
      paragraphs: [
        "Questa informativa ti spiega come trattiamo i tuoi dati personali quando visiti il sito Guida Finanza e quando richiedi una delle nostre guide educative gratuite. È redatta ai sensi dell'art. 13 del Regolamento (UE) 2016/679 (GDPR) e, per i visitatori dalla Svizzera, dell'art. 19 della legge federale sulla protezione dei dati (nLPD).",
        `Il titolare del trattamento è ${controller.name}, con sede in ${controller.address}${vat}. Per qualsiasi domanda sul trattamento dei tuoi dati puoi scrivere a ${controller.email}.`,
        "Non abbiamo nominato un responsabile della protezione dei dati (DPO): tutte le richieste in materia di privacy vengono gestite direttamente dal titolare all'indirizzo indicato sopra.",
      ],
    },
    {
      heading: 'Quali dati trattiamo',
      paragraphs: [
        'Trattiamo soltanto i dati che servono a inviarti la guida che hai chiesto, a dimostrare che ci hai dato il consenso e a mantenere il sito sicuro e funzionante. In particolare:',
      ],
      bullets: [
        'Dati che inserisci nel modulo: nome, cognome, indirizzo email e numero di cellulare.',
        "Prova del consenso: la versione del testo di consenso che hai accettato, la data e l'ora dell'accettazione, il tuo indirizzo IP troncato (privato dell'ultima parte, così da non identificare il singolo dispositivo) e lo user agent del browser, cioè la stringa che descrive browser e sistema operativo.",
        "Provenienza della richiesta: i parametri della campagna presenti nell'indirizzo con cui sei arrivato sul sito (ad esempio utm_source e utm_campaign) e il nome del sito da cui provieni, senza l'indirizzo completo della pagina. Li conserviamo con la richiesta per sapere quale campagna l'ha generata; durante la visita restano solo nella memoria della scheda del browser (sessionStorage), senza cookie. L'identificativo del clic sull'annuncio (ad esempio gclid o fbclid), che la piattaforma pubblicitaria aggiunge all'indirizzo, lo leggiamo, lo conserviamo nella scheda e lo registriamo con la richiesta solo se hai accettato i cookie di marketing; con ogni richiesta registriamo anche lo stato del tuo consenso all'uso pubblicitario dei dati (concesso o negato).",
        "Link di download: il link personale alla guida che ti inviamo e l'informazione se è stato usato o meno.",
        "Stato della consegna: l'esito dell'invio dell'SMS e, se l'SMS non arriva, dell'email di riserva (ad esempio «consegnato» o «non consegnato»).",
        'Dati statistici di navigazione: eventi pseudonimi come le pagine visitate e i passaggi compilati del modulo, associati a un indirizzo IP troncato. Le nostre statistiche interne servono solo a misurare il funzionamento del sito in forma aggregata e non creano profili; Google Analytics viene attivato solo se accetti i cookie analitici.',
        "Scelte sui cookie: le categorie di cookie che hai accettato o rifiutato, con la data della scelta, l'indirizzo IP troncato e lo user agent del browser.",
      ],
    },
    {
      heading: 'Finalità e basi giuridiche',
      paragraphs: [
        "Ogni trattamento ha uno scopo preciso e una base giuridica prevista dall'art. 6 del GDPR. Non usiamo i tuoi dati per scopi diversi da quelli elencati qui e non prendiamo decisioni automatizzate che producano effetti giuridici nei tuoi confronti.",
        'Per i visitatori dalla Svizzera il trattamento rispetta inoltre i principi della nLPD: liceità, buona fede, proporzionalità e trasparenza, con dati trattati solo per le finalità indicate.',
      ],
      bullets: [
        `Invio della guida richiesta: ti mandiamo il link personale via SMS e, se l'SMS non viene consegnato o tarda più di ${minutes(retention.heldEmailMinutes)}, via email. La base giuridica è l'esecuzione di misure adottate su tua richiesta (art. 6.1.b GDPR), insieme al consenso che esprimi nel modulo per essere contattato via SMS (art. 6.1.a GDPR).`,
        "Gestione della tua richiesta: trasmettiamo i tuoi dati di contatto al nostro CRM, il sistema con cui organizziamo e seguiamo le richieste ricevute. La base giuridica è l'esecuzione di misure su tua richiesta (art. 6.1.b GDPR) e il nostro legittimo interesse a gestire le richieste in modo ordinato (art. 6.1.f GDPR).",
        'Comunicazioni informative e promozionali via email e SMS: solo se dai il consenso facoltativo e separato previsto nel modulo (art. 6.1.a GDPR). Se non lo dai, ricevi comunque la guida.',
        "Conservazione della prova del consenso: dobbiamo essere in grado di dimostrare di aver raccolto il tuo consenso in modo valido. La base giuridica è l'adempimento di un obbligo di legge (art. 6.1.c e art. 7.1 GDPR).",
        'Sicurezza del sito e prevenzione degli abusi: limitiamo il numero di richieste che possono partire dallo stesso indirizzo IP o verso lo stesso numero (rate limiting), blocchiamo gli invii automatici e conserviamo i registri tecnici necessari. La base giuridica è il nostro legittimo interesse a proteggere il servizio e i suoi utenti (art. 6.1.f GDPR).',
        "Statistiche interne del sito: misuriamo in forma aggregata e pseudonima le pagine visitate e l'uso del modulo, senza profilazione, per capire se il sito funziona bene. La base giuridica è il nostro legittimo interesse a migliorare il servizio (art. 6.1.f GDPR).",
        'Cookie analitici e Google Analytics: vengono attivati solo se li accetti dal banner o dalle preferenze cookie. La base giuridica è il consenso (art. 6.1.a GDPR e art. 122 del Codice privacy, d.lgs. 196/2003).',
        "Attribuzione dell'annuncio che ti ha portato sul sito: solo se accetti i cookie di marketing leggiamo l'identificativo del clic sull'annuncio (gclid, gbraid, wbraid, fbclid, msclkid o ttclid) presente nell'indirizzo con cui arrivi, lo conserviamo nella memoria della scheda del browser e lo registriamo con la tua richiesta, per sapere quale annuncio l'ha generata. Con la richiesta registriamo anche lo stato del tuo consenso all'uso pubblicitario dei dati (ad_user_data e ad_personalization: «concesso» o «negato»), che le piattaforme pubblicitarie richiedono prima di qualsiasi misurazione delle conversioni. Senza il tuo consenso non leggiamo né conserviamo alcun identificativo del clic e la richiesta riporta il consenso come negato. La base giuridica è il consenso (art. 6.1.a GDPR e art. 122 del Codice privacy, d.lgs. 196/2003); puoi revocarlo in ogni momento dalle «Preferenze cookie»: l'identificativo ancora presente nella scheda viene cancellato subito e non viene registrato con le richieste successive, senza pregiudicare la liceità del trattamento precedente.",
      ],
    },
    {
      heading: 'Destinatari e responsabili del trattamento',
      paragraphs: [
        'I tuoi dati sono trattati dal titolare e da fornitori che ci aiutano a erogare il servizio. Questi fornitori agiscono come responsabili del trattamento (art. 28 GDPR): sono vincolati da un contratto, trattano i dati solo secondo le nostre istruzioni e devono adottare misure di sicurezza adeguate.',
        'Non vendiamo i tuoi dati personali, non li cediamo a terzi per loro finalità di marketing e non li pubblichiamo. I destinatari sono:',
      ],
      bullets: [
        "Twilio Inc. (Stati Uniti), il fornitore che invia gli SMS con il link alla guida e ci comunica l'esito della consegna. Riceve il tuo numero di cellulare e il testo del messaggio. Il trasferimento dei dati negli Stati Uniti si basa sull'EU-U.S. Data Privacy Framework e/o sulle clausole contrattuali tipo della Commissione europea (vedi la sezione successiva).",
        "Il fornitore del servizio di posta elettronica, usato per inviarti il link via email quando l'SMS non viene consegnato e per le comunicazioni relative ai tuoi diritti.",
        'Il fornitore di hosting, presso cui si trovano i server, il database e le copie di sicurezza del sito.',
        'Il nostro CRM, il sistema in cui registriamo e gestiamo le richieste ricevute.',
        'Google Ireland Limited e Google LLC, solo se accetti i cookie analitici: in quel caso i dati di navigazione raccolti da Google Analytics, con indirizzo IP anonimizzato, vengono trattati da Google.',
        "Meta Platforms Ireland Ltd. (Facebook e Instagram) e Google Ireland Limited (Google Ads), solo se hai accettato i cookie di marketing e solo quando promuoviamo il sito con annunci sulle loro piattaforme: per misurare quali campagne portano richieste reali e mostrare gli annunci a chi può esserne interessato. A Meta inviamo dai nostri server il tuo indirizzo email e il tuo numero di cellulare in forma pseudonimizzata (un'impronta SHA-256, che Meta confronta con le impronte dei dati dei propri utenti per riconoscerti, se hai un account, e misurare le campagne), l'identificativo del clic sull'annuncio (fbclid), lo user agent del browser, la pagina e il momento della richiesta e, se avviene, il momento in cui l'SMS risulta consegnato o la guida scaricata. A Google rendiamo disponibile soltanto l'identificativo del clic sull'annuncio (gclid, gbraid o wbraid) con il momento della richiesta o della sua conferma: né la tua email né il tuo numero, nemmeno in forma pseudonimizzata. Non inviamo mai il tuo nome, né l'email o il numero in chiaro. Per questi dati Meta e Google non sono nostri responsabili: li trattano come titolari, secondo i loro termini per gli inserzionisti. Se revochi il consenso al marketing (con il link presente in ogni nostra email o scrivendoci), da quel momento non inviamo più nulla che ti riguardi.",
        'Autorità pubbliche e giudiziarie, soltanto quando la legge ci obbliga a comunicare i dati.',
      ],
    },
    {
      heading: "Trasferimenti fuori dall'UE e dallo SEE",
      paragraphs: [
        "Alcuni fornitori, come Twilio, Google e Meta, hanno sede negli Stati Uniti o possono accedere ai dati da lì. Trasferiamo dati fuori dall'Unione europea e dallo Spazio economico europeo solo quando il trasferimento è protetto da una delle garanzie previste dagli articoli 44–49 del GDPR. Puoi chiederci in ogni momento quali garanzie adottiamo per ciascun fornitore e ottenerne una copia, scrivendo all'indirizzo indicato in questa informativa.",
        'Le garanzie che utilizziamo sono:',
      ],
      bullets: [
        'una decisione di adeguatezza della Commissione europea, che riconosce al Paese di destinazione un livello di protezione equivalente a quello europeo: la Svizzera, per esempio, ne ha una;',
        "per gli Stati Uniti, l'EU-U.S. Data Privacy Framework, quando il destinatario è certificato secondo questo quadro;",
        'in alternativa o in aggiunta, le clausole contrattuali tipo (Standard Contractual Clauses) approvate dalla Commissione europea, accompagnate dalle misure supplementari eventualmente necessarie;',
        "per i dati dei visitatori dalla Svizzera, le garanzie equivalenti previste dalla nLPD: i Paesi che il Consiglio federale considera adeguati (tra cui gli Stati dell'UE e dello SEE), lo Swiss-U.S. Data Privacy Framework per i destinatari statunitensi certificati oppure clausole contrattuali tipo riconosciute dall'IFPDT.",
      ],
    },
    {
      heading: 'Per quanto tempo conserviamo i dati',
      paragraphs: [
        'Conserviamo i dati solo per il tempo necessario alle finalità per cui li abbiamo raccolti. Alla scadenza li cancelliamo oppure li rendiamo anonimi in modo irreversibile, così che non sia più possibile ricondurli a te.',
      ],
      bullets: [
        `Dati della richiesta (nome, cognome, email, cellulare e stato delle consegne): ${retention.leadMonths} mesi dalla richiesta, poi vengono cancellati o anonimizzati in modo irreversibile. Prima della cancellazione ti avvisiamo.`,
        `Dati statistici di navigazione: ${retention.analyticsMonths} mesi, poi vengono cancellati, insieme ai riepiloghi giornalieri che ne ricaviamo.`,
        `Richieste sui tuoi diritti (accesso, rettifica, portabilità): la richiesta e la nostra risposta per ${retention.leadMonths} mesi dalla risposta. Di una richiesta di cancellazione conserviamo soltanto la data e l'esito, senza il tuo indirizzo, come prova della cancellazione.`,
        'Prova del consenso: per tutto il tempo necessario a dimostrare che il consenso è stato raccolto correttamente, ad esempio in caso di contestazioni o di verifiche da parte delle autorità. Quando i tuoi dati vengono cancellati ne conserviamo soltanto data, versione del testo accettato e un’impronta non leggibile del tuo indirizzo email.',
        `Link di download della guida: scade dopo ${days(retention.linkDays)} dall'invio e da quel momento non permette più di scaricare il file.`,
        `Scelta sui cookie: resta valida per 6 mesi; trascorso questo periodo ti chiediamo di nuovo le tue preferenze. La registrazione della scelta, che ci serve a dimostrarla, è conservata per ${retention.analyticsMonths} mesi.`,
        'Se revochi il consenso alle comunicazioni promozionali o eserciti il diritto di cancellazione, interrompiamo i relativi trattamenti senza attendere le scadenze indicate, salvo i dati che dobbiamo conservare per obbligo di legge o per dimostrare il consenso.',
        'Elenco di chi ha revocato il consenso alle comunicazioni promozionali: per rispettare la tua scelta anche dopo la cancellazione dei tuoi dati conserviamo, senza limiti di tempo, soltanto un’impronta cifrata (non invertibile senza una chiave segreta) del tuo indirizzo email e del tuo numero di telefono, con la data della revoca: non conserviamo l’indirizzo né il numero.',
      ],
    },
    {
      heading: 'I tuoi diritti',
      paragraphs: [
        'In qualsiasi momento puoi esercitare i diritti previsti dagli articoli 15–22 del GDPR e, se ti trovi in Svizzera, quelli riconosciuti dalla nLPD. Hai diritto di:',
      ],
      bullets: [
        'accesso: sapere se trattiamo dati che ti riguardano e riceverne una copia, con le informazioni su finalità, destinatari e tempi di conservazione;',
        'rettifica: correggere i dati inesatti o completare quelli incompleti;',
        'cancellazione: ottenere la cancellazione dei tuoi dati quando non sono più necessari, quando revochi il consenso o quando il trattamento non è lecito;',
        'limitazione: chiedere che i dati vengano soltanto conservati, senza altri utilizzi, ad esempio mentre verifichiamo una tua contestazione;',
        'portabilità: ricevere i dati che ci hai fornito in un formato strutturato, di uso comune e leggibile da dispositivo automatico, e trasmetterli a un altro titolare;',
        'opposizione: opporti in qualsiasi momento ai trattamenti basati sul nostro legittimo interesse, per motivi legati alla tua situazione particolare, e sempre, senza dover dare motivazioni, alle comunicazioni promozionali;',
        'revoca del consenso: ritirare in qualsiasi momento il consenso che hai dato, senza che questo renda illecito il trattamento effettuato prima della revoca.',
      ],
    },
    {
      heading: "Reclamo all'autorità di controllo",
      paragraphs: [
        "Se ritieni che il trattamento dei tuoi dati violi la normativa, puoi proporre reclamo al Garante per la protezione dei dati personali (www.garanteprivacy.it) oppure all'autorità di controllo dello Stato dell'UE in cui risiedi o lavori.",
        "Se ti trovi in Svizzera, puoi rivolgerti all'Incaricato federale della protezione dei dati e della trasparenza (IFPDT, www.edoeb.admin.ch). Ti invitiamo comunque a scriverci prima: spesso possiamo risolvere il problema rapidamente.",
      ],
    },
    {
      heading: 'Come esercitare i tuoi diritti',
      paragraphs: [
        'Puoi revocare in qualsiasi momento il consenso alle comunicazioni informative e promozionali con un clic sul link presente in ogni email che ti inviamo (o con il pulsante «Annulla iscrizione» del tuo programma di posta), senza accedere ad alcun account; la revoca vale per l’indirizzo email e il numero di telefono della richiesta e non pregiudica la liceità del trattamento precedente.',
        `Per gli altri diritti puoi inviare la tua richiesta con il modulo della pagina /gdpr oppure scrivere a ${controller.email}. Indica l'indirizzo email con cui hai richiesto la guida e il diritto che vuoi esercitare.`,
        "Per proteggere i tuoi dati da richieste fatte da altri a tuo nome, prima di procedere ti inviamo un link di conferma all'indirizzo email indicato: trattiamo la richiesta solo dopo che l'hai confermata.",
        "Ti rispondiamo entro un mese dal ricevimento della richiesta. Se la richiesta è particolarmente complessa o se ne riceviamo molte, il termine può essere prorogato di altri due mesi: in questo caso te lo comunichiamo entro il primo mese, spiegandoti il motivo (art. 12.3 GDPR). L'esercizio dei diritti è gratuito.",
      ],
    },
    {
      heading: 'Natura del conferimento dei dati',
      paragraphs: [
        "Fornire nome, cognome, indirizzo email e numero di cellulare è necessario per ricevere la guida: senza questi dati non possiamo inviarti il link personale né, in caso di problemi con l'SMS, recapitartelo via email. Allo stesso modo, senza il consenso richiesto nel modulo non possiamo contattarti via SMS.",
        'Il consenso alle comunicazioni informative e promozionali è invece del tutto facoltativo: se non lo dai, ricevi comunque la guida e non subisci alcuna conseguenza.',
      ],
    },
    {
      heading: 'Cookie',
      paragraphs: [
        'I cookie sono piccoli file che il sito salva nel tuo browser. Li dividiamo in quattro categorie; al primo accesso un banner ti permette di accettarli tutti, di mantenere solo quelli essenziali o di scegliere categoria per categoria. Le categorie diverse da quella essenziale restano disattivate finché non le attivi tu.',
        'La tua scelta viene conservata per 6 mesi, come indicato dalle linee guida del Garante sui cookie. Puoi cambiarla in qualsiasi momento dal link «Preferenze cookie» in fondo a ogni pagina. Se chiudi il banner con la X, vengono usati solo i cookie essenziali.',
      ],
      bullets: [
        'Essenziali: servono al funzionamento del sito, ad esempio per ricordare la tua scelta sui cookie e proteggere i moduli dagli abusi. Non richiedono consenso e non possono essere disattivati.',
        'Analitici: ci aiutano a capire, in forma aggregata, come i visitatori usano il sito. Comprendono Google Analytics, che viene caricato solo se accetti questa categoria e che smette di raccogliere dati, con la rimozione dei suoi cookie, se revochi il consenso.',
        "Marketing: permettono di mostrarti pubblicità personalizzata in base ai tuoi interessi e di sapere da quale annuncio sei arrivato, leggendo l'identificativo del clic che la piattaforma pubblicitaria aggiunge all'indirizzo della pagina. Vengono attivati solo con il tuo consenso; se lo revochi, l'identificativo del clic conservato nella scheda del browser viene cancellato.",
        "Preferenze: ricordano le tue impostazioni di visualizzazione tra una visita e l'altra. Vengono attivati solo con il tuo consenso.",
      ],
    },
    {
      heading: 'Modifiche a questa informativa',
      paragraphs: [
        "Possiamo aggiornare questa informativa, ad esempio quando cambiano i fornitori, le finalità o la normativa. La data dell'ultimo aggiornamento è sempre indicata in cima alla pagina.",
        'Se le modifiche riguardano in modo rilevante il trattamento dei tuoi dati, te le segnaliamo in modo ben visibile sul sito o via email prima che diventino efficaci e, quando serve, ti chiediamo un nuovo consenso. Ti consigliamo di rileggere periodicamente questa pagina.',
      ],
    },
  ];

  return {
    meta: {
      title: 'Informativa sulla privacy | Guida Finanza',
      description:
        'Come Guida Finanza tratta i tuoi dati: quali raccogliamo, per quali finalità, per quanto tempo, con chi li condividiamo e come esercitare i tuoi diritti.',
    },
    heading: 'Informativa sul trattamento dei dati personali',
    updated: ITALIAN_DATE.format(new Date(PRIVACY_NOTICE_VERSIONS.at(-1)!.effective)),
    sections,
  };
}
