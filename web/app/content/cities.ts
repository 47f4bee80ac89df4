import type { CityPage } from './types';

/**
 * Per-city data for the city template (routes/city.tsx). The template adds the shared
 * sections on risks and on choosing an intermediary; here only facts about each place.
 * Keep the local paragraphs to well-established facts: no figures, rankings or claims.
 */
export const cityPages: CityPage[] = [
  {
    path: '/trading-italia',
    title: 'Trading in Italia: cosa sapere prima di iniziare',
    description:
      "Trading in Italia: chi vigila sui mercati, come verificare un intermediario autorizzato e perché studiare le basi prima di rischiare il proprio denaro.",
    city: 'Italia',
    inCity: 'in Italia',
    heading: 'Trading in Italia: cosa sapere prima di iniziare',
    intro:
      "Aprire un conto di trading oggi richiede pochi minuti, ma capire che cosa si sta facendo richiede molto di più. In questa pagina trovi chi vigila sui mercati italiani, dove informarti su fonti ufficiali e quali rischi conoscere prima di qualsiasi decisione.",
    localParagraphs: [
      "In Italia la vigilanza sui mercati finanziari e sugli intermediari spetta alla CONSOB, mentre la Banca d'Italia vigila soprattutto sulla sana e prudente gestione di banche e altri intermediari. Entrambe hanno sede a Roma e pubblicano sui propri siti gli elenchi dei soggetti autorizzati. La CONSOB segnala anche i siti che offrono servizi finanziari senza autorizzazione e di cui ha ordinato l'oscuramento: controllarli prima di affidare denaro a qualcuno richiede pochi minuti e può evitare brutte sorprese.",
      "Borsa Italiana ha sede a Milano, a Palazzo Mezzanotte in piazza degli Affari, e gestisce il mercato in cui si negoziano le azioni delle principali società italiane, il cui andamento è riassunto dall'indice FTSE MIB. Oggi, però, basta una piattaforma online per comprare e vendere strumenti quotati sui mercati di tutto il mondo. Proprio questa facilità di accesso rende importante sapere con chi si opera e quali costi e rischi comporta ogni strumento.",
      "Per chi vuole imparare esistono anche risorse pubbliche e gratuite. Il Comitato per la programmazione e il coordinamento delle attività di educazione finanziaria cura il portale \"Quello che conta\", con schede semplici su risparmio, investimenti, credito e previdenza, e ogni anno a ottobre promuove il Mese dell'educazione finanziaria, con iniziative in tutta Italia. Sono un buon punto di partenza per costruire basi solide prima di valutare qualunque forma di investimento o di trading.",
    ],
  },
  {
    path: '/trading-milano',
    title: 'Trading a Milano: cosa sapere prima di iniziare',
    description:
      "Trading a Milano, sede di Borsa Italiana: come funzionano i mercati, come verificare un intermediario e quali rischi conoscere prima di iniziare.",
    city: 'Milano',
    inCity: 'a Milano',
    heading: 'Trading a Milano: cosa sapere prima di iniziare',
    intro:
      "Milano è il centro della finanza italiana, ma vivere vicino alla Borsa non rende il trading più semplice né meno rischioso. Prima di aprire un conto conviene capire come funzionano i mercati, come riconoscere un intermediario autorizzato e quali errori evitare.",
    localParagraphs: [
      "A Milano si trova Borsa Italiana, la società che gestisce i principali mercati regolamentati italiani, con sede a Palazzo Mezzanotte, in piazza degli Affari, nel cuore della città: per questo \"Piazza Affari\" è diventato il modo abituale per indicare la Borsa di Milano. Sui suoi mercati si negoziano le azioni delle principali società italiane, il cui andamento è sintetizzato dall'indice FTSE MIB, oltre a obbligazioni, ETF e altri strumenti.",
      "Oltre alla Borsa, Milano ospita le sedi di molte banche, società di gestione del risparmio e imprese di investimento: è la principale piazza finanziaria italiana. Questo non significa che chiunque proponga un investimento in città sia autorizzato a farlo. Prima di affidare denaro a un intermediario, anche se ha un ufficio prestigioso o un sito curato, verifica sempre che compaia negli elenchi ufficiali pubblicati dalla CONSOB e dalla Banca d'Italia.",
    ],
  },
  {
    path: '/trading-roma',
    title: 'Trading a Roma: cosa sapere prima di iniziare',
    description:
      "Trading a Roma, dove hanno sede CONSOB e Banca d'Italia: come verificare un intermediario, a chi rivolgersi e quali rischi conoscere prima di iniziare.",
    city: 'Roma',
    inCity: 'a Roma',
    heading: 'Trading a Roma: cosa sapere prima di iniziare',
    intro:
      "Roma ospita le principali autorità che vigilano sul sistema finanziario italiano. Conoscerne il ruolo aiuta a proteggersi: prima di fare trading conviene sapere dove verificare un intermediario, a chi rivolgersi in caso di problemi e quali rischi si corrono.",
    localParagraphs: [
      "A Roma hanno sede la CONSOB, l'autorità che vigila sui mercati finanziari e sulla correttezza degli intermediari, e la Banca d'Italia, la banca centrale italiana, con sede storica a Palazzo Koch, in via Nazionale. Sono le due istituzioni da cui partire per capire se chi propone un investimento è autorizzato: sui loro siti trovi gli elenchi ufficiali dei soggetti abilitati e, sul sito della CONSOB, gli avvisi sui siti abusivi oscurati.",
      "Presso la CONSOB opera anche l'Arbitro per le Controversie Finanziarie (ACF), a cui i risparmiatori possono rivolgersi senza costi per le controversie con gli intermediari sui servizi di investimento, dopo aver presentato un reclamo all'intermediario stesso. Conoscere questi strumenti è utile, ma la tutela migliore resta la prevenzione: scegliere soltanto intermediari autorizzati, leggere i documenti informativi e non cedere a chi promette rendimenti sicuri o mette fretta.",
    ],
  },
  {
    path: '/trading-napoli',
    title: 'Trading a Napoli: cosa sapere prima di iniziare',
    description:
      "Trading a Napoli: perché partire dall'educazione finanziaria, come verificare un intermediario autorizzato e quali rischi conoscere prima di investire.",
    city: 'Napoli',
    inCity: 'a Napoli',
    heading: 'Trading a Napoli: cosa sapere prima di iniziare',
    intro:
      "Anche a Napoli, come nel resto d'Italia, oggi bastano un'app e pochi minuti per accedere ai mercati. Prima di farlo conviene fermarsi a imparare le basi: come funzionano i mercati, quali rischi comportano i prodotti a leva e come riconoscere un intermediario autorizzato.",
    localParagraphs: [
      "Napoli ha una lunga tradizione bancaria, legata tra l'altro allo storico Banco di Napoli, ma oggi per investire o fare trading non serve più recarsi in una filiale: bastano uno smartphone e pochi minuti. Questa comodità ha un rovescio. Chi opera da solo, online, deve saper valutare da sé costi, rischi e affidabilità di chi offre il servizio, e deve riconoscere le proposte che arrivano da soggetti non autorizzati.",
      "Per questo l'educazione finanziaria è il primo passo. Esistono risorse pubbliche e gratuite, come il portale \"Quello che conta\" del Comitato per l'educazione finanziaria e le pagine dedicate ai risparmiatori sui siti della CONSOB e della Banca d'Italia. Ogni anno, a ottobre, il Mese dell'educazione finanziaria porta iniziative in tutta Italia. Imparare prima di rischiare denaro vero aiuta a prendere decisioni più consapevoli e a riconoscere le truffe.",
    ],
  },
  {
    path: '/trading-torino',
    title: 'Trading a Torino: cosa sapere prima di iniziare',
    description:
      "Trading a Torino, storica città di banche e industria: come funzionano i mercati, come verificare un intermediario autorizzato e quali rischi conoscere.",
    city: 'Torino',
    inCity: 'a Torino',
    heading: 'Trading a Torino: cosa sapere prima di iniziare',
    intro:
      "Torino ha una lunga storia bancaria e industriale e ospita un museo dedicato proprio al risparmio. Prima di avvicinarti al trading conviene partire da qui: capire i mercati, conoscere i rischi e imparare a riconoscere un intermediario autorizzato.",
    localParagraphs: [
      "Torino è da secoli un centro bancario e industriale di primo piano. La Compagnia di San Paolo, nata in città nel Cinquecento, è all'origine di una delle grandi tradizioni bancarie italiane, e oggi Intesa Sanpaolo, uno dei principali gruppi bancari del Paese, ha la sede legale a Torino. La città è legata anche alla storia dell'industria italiana, a partire dall'automobile: qui nel 1899 è nata la Fiat.",
      "A Torino si trova anche il Museo del Risparmio, uno spazio dedicato a far conoscere in modo semplice concetti come risparmio e investimento. È un esempio di come l'educazione finanziaria possa essere accessibile a tutti. Prima di aprire un conto di trading vale la pena seguire lo stesso approccio: studiare le basi, provare con un conto demo e verificare sempre che l'intermediario compaia negli elenchi ufficiali della CONSOB.",
    ],
  },
  {
    path: '/trading-bari',
    title: 'Trading a Bari: cosa sapere prima di iniziare',
    description:
      "Trading a Bari: perché partire dall'educazione finanziaria, come riconoscere un intermediario autorizzato e quali rischi conoscere prima di investire.",
    city: 'Bari',
    inCity: 'a Bari',
    heading: 'Trading a Bari: cosa sapere prima di iniziare',
    intro:
      "Da Bari, come da qualunque altra città, oggi si può accedere ai mercati di tutto il mondo con uno smartphone. Proprio per questo conviene partire dalle basi: come funzionano i mercati, quali rischi comportano i prodotti a leva e come verificare chi offre il servizio.",
    localParagraphs: [
      "Con le piattaforme online la distanza dalle grandi piazze finanziarie non conta più: da Bari si possono comprare e vendere azioni, ETF o valute con pochi clic. La facilità di accesso, però, non riduce i rischi. Chi opera online deve saper valutare da solo costi, rischi e affidabilità dell'intermediario, e deve fare attenzione alle offerte ricevute al telefono, sui social o nelle app di messaggistica, un canale molto usato dalle truffe finanziarie.",
      "Il modo migliore per proteggersi è imparare prima di rischiare denaro vero. L'educazione finanziaria non riguarda solo chi investe: la Banca d'Italia, per esempio, da anni promuove programmi dedicati nelle scuole, e il portale pubblico \"Quello che conta\" offre schede gratuite su bilancio familiare, risparmio e investimenti. Partire da queste basi aiuta a capire se e come il trading possa avere spazio nella propria situazione, senza farsi guidare dall'entusiasmo o dalla fretta.",
    ],
  },
];
