import type { TopicPage } from './types';

/**
 * Italian topic pages (country 'IT'). Educational content only: no advice, no promises of
 * gains, no invented figures. Every page ends with a call to request the free guide.
 */
export const italianTopicPages: TopicPage[] = [
  {
    path: '/pianificazione-finanziaria',
    title: 'Pianificazione finanziaria: come costruire un piano',
    description:
      "Obiettivi, orizzonti temporali, fondo di emergenza, debiti e pensione: i passi per costruire un piano finanziario personale in Italia, con calma e metodo.",
    heading: 'Pianificazione finanziaria: un piano semplice per i tuoi obiettivi',
    intro:
      "Pianificare le proprie finanze non è un lusso per chi ha grandi patrimoni: è il modo più semplice per dare una direzione ai soldi che già entrano ogni mese. Un buon piano parte dalla situazione di oggi, fissa obiettivi chiari e tiene conto di imprevisti, debiti e pensione. Vediamo come impostarlo passo dopo passo.",
    sections: [
      {
        heading: 'Partire da una fotografia della situazione attuale',
        paragraphs: [
          "Ogni piano comincia con un inventario onesto. Da una parte metti ciò che possiedi: il saldo dei conti, eventuali conti deposito, titoli, fondi, la quota di TFR maturata, il valore indicativo della casa. Dall'altra ciò che devi: il mutuo residuo, i prestiti personali, le rate di acquisti a credito, il saldo di una carta revolving. La differenza tra le due colonne è il tuo patrimonio netto, un numero che conviene aggiornare una volta l'anno per capire se stai andando nella direzione giusta.",
          "Accanto al patrimonio serve il quadro dei flussi: quanto entra e quanto esce ogni mese. Per un paio di mesi annota tutte le spese, comprese quelle piccole e gli abbonamenti che si rinnovano da soli, e aggiungi la quota mensile delle spese periodiche, come l'assicurazione dell'auto o le imposte. Solo così scopri quanto puoi davvero destinare ai tuoi obiettivi senza illuderti e senza rinunce impossibili da sostenere.",
        ],
      },
      {
        heading: 'Obiettivi chiari e orizzonti temporali',
        paragraphs: [
          "Un desiderio vago, come \"vorrei risparmiare di più\", raramente si trasforma in risultati. Un obiettivo funziona quando è specifico, misurabile, realistico e ha una scadenza: per esempio mettere da parte una certa somma per l'anticipo di una casa entro cinque anni. Dividendo l'importo per i mesi disponibili ottieni la quota da accantonare, e l'obiettivo diventa un impegno concreto che puoi controllare nel tempo.",
          "Ogni obiettivo ha poi il suo orizzonte, e l'orizzonte aiuta a capire dove tenere il denaro. Le somme che ti serviranno a breve non dovrebbero essere esposte a forti oscillazioni di valore, perché potresti doverle ritirare proprio in un momento di ribasso. Per gli obiettivi lontani, come la pensione, si possono valutare strumenti più volatili, sapendo che nessun orizzonte, per quanto lungo, rende un risultato garantito.",
        ],
        bullets: [
          'Breve periodo (entro un anno): vacanze, spese straordinarie, fondo di emergenza.',
          "Medio periodo (da uno a cinque anni): auto, formazione, anticipo per l'acquisto della casa.",
          'Lungo periodo (oltre cinque anni): pensione, studi dei figli, progetti di vita.',
        ],
      },
      {
        heading: 'Le fondamenta: fondo di emergenza e debiti',
        paragraphs: [
          "Prima di pensare a qualsiasi investimento conviene costruire un fondo di emergenza: una riserva facilmente disponibile, separata dal conto delle spese quotidiane, pari in genere a tre-sei mesi di spese essenziali. Serve ad affrontare un guasto, una spesa medica o un periodo senza lavoro senza dover chiedere un prestito o vendere un investimento nel momento sbagliato. Se il traguardo ti sembra lontano, comincia con una cifra piccola e aumentala gradualmente.",
          "Il secondo pilastro delle fondamenta sono i debiti. Un mutuo con una rata sostenibile può far parte di un piano sensato; il credito al consumo costoso, invece, rallenta qualsiasi progetto. Quando confronti due finanziamenti guarda il TAEG, che comprende interessi e spese accessorie, e non solo il TAN. Se hai più debiti, rimborsare per primo quello con il tasso più alto di solito fa risparmiare di più sugli interessi complessivi.",
        ],
      },
      {
        heading: 'La pensione: previdenza pubblica e complementare',
        paragraphs: [
          "In Italia la previdenza pubblica obbligatoria è gestita soprattutto dall'INPS. Con il sistema contributivo, l'importo della pensione dipende dai contributi versati durante tutta la vita lavorativa: per questo è utile consultare periodicamente il proprio estratto conto contributivo sul sito dell'INPS e verificare che non manchino periodi. È anche il punto di partenza per stimare quanto potresti ricevere e quanto potrebbe mancare rispetto al tenore di vita che desideri.",
          "Accanto alla pensione pubblica c'è la previdenza complementare: fondi pensione negoziali, fondi pensione aperti e piani individuali pensionistici (PIP), tutti vigilati dalla COVIP. Al fondo si può destinare il TFR e, nei fondi negoziali, molti contratti prevedono un contributo del datore di lavoro per chi aderisce. I versamenti sono deducibili dal reddito entro un limite annuo fissato dalla legge. Prima di aderire confronta costi e linee di investimento nei documenti informativi di ciascuna forma.",
        ],
      },
      {
        heading: 'Rivedere il piano nel tempo',
        paragraphs: [
          "Un piano finanziario non si scrive una volta per tutte. Un nuovo lavoro, la nascita di un figlio, un trasloco o una separazione cambiano entrate, spese e priorità. Rivederlo con calma una o due volte l'anno, invece che sull'onda delle notizie o dell'umore del momento, aiuta a mantenere la rotta e a correggerla quando serve, senza decisioni impulsive. Per scelte importanti, come un mutuo o l'adesione a un fondo pensione, può essere utile rivolgersi a un professionista abilitato.",
          "Per informarti puoi contare anche su fonti pubbliche e gratuite: la Banca d'Italia, la CONSOB, l'IVASS e la COVIP pubblicano materiali di educazione finanziaria, e il portale nazionale \"Quello che conta\" raccoglie guide su bilancio, credito, assicurazioni e previdenza. Diffida invece di chi propone piani \"chiavi in mano\" con rendimenti promessi: nessuna pianificazione seria può garantire un risultato, e ogni investimento comporta il rischio di perdere una parte del capitale.",
        ],
      },
    ],
    cta: {
      title: 'Ricevi la guida gratuita sulla finanza personale',
      text: "Bilancio familiare, fondo di emergenza, debiti, inflazione e previdenza spiegati in modo semplice. Richiedi la guida educativa in PDF: ti inviamo via SMS il link personale per scaricarla.",
    },
    ebookType: 'financial-education',
    country: 'IT',
    related: ['/finanza-personale', '/investimenti-sicuri', '/etf-vs-oro'],
  },
  {
    path: '/oro-fisico-digitale',
    title: 'Oro fisico o oro digitale: differenze, costi e rischi',
    description:
      "Lingotti e monete oppure ETC e conti oro? Purezza, custodia, costi, rischio di controparte e operatori autorizzati: le differenze spiegate con chiarezza.",
    heading: 'Oro fisico e oro digitale: come funzionano e cosa cambia',
    intro:
      "Oggi si può possedere oro in due modi molto diversi: tenendo in mano un lingotto o una moneta, oppure acquistando uno strumento finanziario che ne segue il prezzo. Entrambe le strade hanno vantaggi, costi e rischi propri, che conviene conoscere prima di qualsiasi scelta. Questa pagina li mette a confronto senza indicazioni di prezzo e senza raccomandazioni.",
    sections: [
      {
        heading: "L'oro fisico: lingotti e monete",
        paragraphs: [
          "L'oro fisico si acquista sotto forma di lingotti, di piccole placchette o di monete. Per i lingotti contano soprattutto il peso e il titolo, cioè la purezza espressa in millesimi: un titolo di 999,9 indica oro praticamente puro. Un lingotto serio riporta il marchio del raffinatore, il peso, il titolo e di solito un numero di serie, ed è accompagnato da un certificato o da una fattura che ne attesta le caratteristiche.",
          "Le monete d'oro da investimento hanno un valore legato soprattutto al metallo che contengono, mentre le monete da collezione seguono anche le logiche del mercato numismatico, più difficili da valutare per chi non è esperto. In Italia, come nel resto dell'Unione europea, l'oro da investimento che rispetta i requisiti di legge non sconta l'IVA, a differenza di gioielli e oggetti lavorati, il cui prezzo comprende anche la lavorazione.",
        ],
        bullets: [
          'Verifica peso, titolo, marchio del raffinatore e numero di serie.',
          'Conserva fattura e certificato: servono per rivendere e anche a fini fiscali.',
          'Diffida di prezzi molto più bassi di quelli praticati dagli operatori noti.',
        ],
      },
      {
        heading: 'I costi nascosti del possesso fisico',
        paragraphs: [
          "Il primo costo è la differenza tra il prezzo a cui compri e quello a cui puoi rivendere. Sui pezzi piccoli questa differenza è in proporzione più ampia, perché la lavorazione e la distribuzione pesano di più rispetto al metallo contenuto. Chi acquista un lingotto e lo rivende poco dopo, a parità di quotazione, di solito ottiene meno di quanto ha pagato: per questo l'oro fisico si presta poco a operazioni di breve periodo.",
          "Poi c'è la custodia. Tenere l'oro in casa espone al rischio di furto, e non tutte le polizze sulla casa coprono i preziosi o lo fanno solo fino a certi importi. La cassetta di sicurezza in banca ha un canone annuo, e alcuni operatori offrono servizi di custodia a pagamento. Anche la rivendita richiede tempo: chi acquista potrebbe voler verificare l'integrità del pezzo, soprattutto se manca la documentazione originale.",
        ],
      },
      {
        heading: 'Dove acquistare: operatori autorizzati',
        paragraphs: [
          "In Italia il commercio professionale di oro da investimento è riservato alle banche e agli operatori professionali in oro, società che devono possedere specifici requisiti di legge ed essere iscritte in un apposito elenco. Per molti anni l'elenco è stato tenuto dalla Banca d'Italia; una riforma recente ne ha affidato la gestione all'OAM, l'Organismo Agenti e Mediatori. Prima di acquistare, soprattutto da un venditore online che non conosci, controlla che sia iscritto. I negozi che comprano oro usato da privati sono una realtà diversa e non vanno confusi con chi vende oro da investimento.",
          "Per gli acquisti preferisci pagamenti tracciabili, come il bonifico, e diffida di chi chiede contanti, criptovalute o versamenti sul conto di un privato. Negli ultimi anni sono comparsi siti che imitano operatori reali, propongono prezzi fuori mercato e poi non consegnano nulla. Se un'offerta sembra troppo conveniente, fermati, verifica l'identità del venditore e la sua iscrizione prima di pagare, e non lasciarti convincere da chi insiste perché tu decida subito.",
        ],
      },
      {
        heading: "L'oro \"digitale\": ETC e conti oro",
        paragraphs: [
          "Con il termine oro digitale si indicano strumenti che danno un'esposizione al prezzo dell'oro senza doverlo custodire. I più diffusi sono gli ETC sull'oro, titoli quotati in Borsa, in Italia sul segmento ETFplus di Borsa Italiana, che seguono l'andamento del metallo. Molti sono garantiti da oro fisico depositato presso un custode. Si comprano e si vendono tramite la propria banca o un broker come un'azione, pagando commissioni di negoziazione, lo spread e un costo annuo di gestione.",
          "Esistono poi i conti oro e i piani di accumulo offerti da alcune banche e operatori, con cui si acquistano grammi d'oro anche con piccole somme periodiche. Le condizioni variano molto: in alcuni casi l'oro è individuato e intestato al cliente, in altri si ha solo un diritto verso l'operatore. Leggi con attenzione il contratto, i costi di custodia e di uscita e la possibilità di ritirare fisicamente il metallo. Prodotti in criptovaluta legati all'oro meritano una cautela ancora maggiore.",
        ],
      },
      {
        heading: 'Rischio di controparte e criteri di confronto',
        paragraphs: [
          "La differenza più importante tra le due forme di possesso riguarda il rischio di controparte. Un lingotto custodito da te non dipende dalla solidità di nessuno, ma ti espone a furti e problemi di custodia. Un ETC è invece, dal punto di vista giuridico, un titolo emesso da una società: contano quindi la solidità dell'emittente, la struttura delle garanzie e il custode dell'oro. Lo stesso vale, a maggior ragione, per i conti oro: la tutela dipende da chi detiene il metallo e da come è separato dal patrimonio dell'operatore.",
          "In entrambi i casi l'oro non paga interessi né dividendi, il suo prezzo oscilla, anche molto, ed è espresso in dollari, quindi per chi ragiona in euro entra in gioco anche il cambio. Anche il trattamento fiscale può essere diverso tra oro fisico e strumenti quotati: verifica le regole in vigore presso fonti ufficiali o con un professionista prima di decidere.",
        ],
      },
    ],
    cta: {
      title: "Scarica la guida gratuita sull'investimento consapevole",
      text: "Oro fisico ed ETC, ETF, azioni, costi, diversificazione e orizzonte temporale spiegati con esempi chiari. Richiedi la guida educativa in PDF: il link personale per scaricarla arriva via SMS.",
    },
    ebookType: 'investment-education',
    country: 'IT',
    related: ['/etf-vs-oro', '/trend-oro-italiani', '/investimenti-sicuri'],
  },
  {
    path: '/trend-oro-italiani',
    title: "Gli italiani e l'oro: tradizione, domanda e rischi",
    description:
      "Cosa muove la domanda di oro, perché gli italiani lo hanno sempre amato e quale ruolo può avere in un portafoglio. Una lettura educativa, senza previsioni.",
    heading: "Gli italiani e l'oro: una tradizione da capire, non da seguire a occhi chiusi",
    intro:
      "In Italia l'oro è molto più di un metallo prezioso: è un regalo di famiglia, un ricordo, per molti una forma di risparmio tramandata da una generazione all'altra. Capire che cosa ne muove la domanda e quali rischi comporta aiuta a guardarlo con più lucidità. Qui non troverai previsioni sul prezzo, perché nessuno può conoscerlo in anticipo.",
    sections: [
      {
        heading: "Che cosa muove la domanda di oro nel mondo",
        paragraphs: [
          "La domanda di oro arriva da fonti molto diverse tra loro. Una parte importante è legata alla gioielleria, un'altra all'investimento in lingotti, monete e strumenti finanziari che ne seguono il prezzo. Le banche centrali lo detengono nelle proprie riserve e possono acquistarne o venderne, mentre l'industria lo impiega in quantità più ridotte, per esempio nell'elettronica. Ciascuna di queste componenti reagisce a stimoli diversi, e il prezzo nasce dal loro equilibrio con l'offerta.",
          "Tra i fattori che gli analisti citano più spesso ci sono i tassi di interesse, perché l'oro non paga cedole e diventa relativamente meno interessante quando i rendimenti reali salgono, l'andamento del dollaro, in cui l'oro è quotato, e i periodi di incertezza economica o politica. Si tratta però di tendenze generali, non di regole: in molti momenti il prezzo si è mosso in modo diverso da quanto molti si aspettavano.",
        ],
        bullets: [
          'Gioielleria e oreficeria.',
          'Investimento: lingotti, monete, ETC e altri strumenti.',
          'Riserve delle banche centrali.',
          'Impieghi industriali e tecnologici.',
        ],
      },
      {
        heading: "Perché gli italiani hanno sempre tenuto l'oro",
        paragraphs: [
          "Il legame degli italiani con l'oro ha radici culturali profonde. La catenina per il battesimo, la medaglietta per la comunione, le fedi nuziali e i gioielli di famiglia sono tradizioni diffuse in tutto il Paese, e l'oreficeria italiana ha distretti storici noti nel mondo, come quelli di Arezzo, Vicenza e Valenza. Per molte famiglie l'oro è stato a lungo un bene concreto, da tenere in casa e da passare ai figli.",
          "Conta anche la memoria economica. Chi ha vissuto gli anni di inflazione elevata e le svalutazioni della lira ha visto il potere d'acquisto del denaro ridursi rapidamente, e ha cercato beni percepiti come più stabili. Anche lo Stato custodisce oro: le riserve auree gestite dalla Banca d'Italia sono tra le più consistenti al mondo. Tutto questo spiega la fiducia diffusa nel metallo, ma non dice nulla su come si muoverà il suo prezzo in futuro.",
        ],
      },
      {
        heading: "Il ruolo dell'oro in un portafoglio",
        paragraphs: [
          "Nella teoria degli investimenti l'oro viene spesso considerato uno strumento di diversificazione, perché in alcune fasi si è mosso in modo diverso da azioni e obbligazioni. Alcuni investitori lo usano come una sorta di assicurazione contro le crisi più gravi o contro la perdita di valore delle valute. Questo ruolo, però, non è garantito: ci sono stati periodi in cui l'oro è sceso insieme agli altri mercati, o è rimasto fermo a lungo.",
          "Proprio perché non produce reddito, l'oro non lavora come un'azione, che partecipa agli utili di un'impresa, o come un'obbligazione, che paga interessi. Il risultato dipende solo dalla differenza tra prezzo di acquisto e di vendita. Per questo, nelle impostazioni più prudenti, l'oro è considerato un complemento e non il pilastro di un patrimonio. Quanto pesarlo dipende da obiettivi, orizzonte e tolleranza al rischio di ciascuno, ed è una scelta personale.",
        ],
      },
      {
        heading: 'I rischi da non sottovalutare',
        paragraphs: [
          "L'idea dell'oro come bene rifugio può far dimenticare che il suo prezzo oscilla, a volte in modo marcato. Nella storia ha attraversato lunghi periodi di crescita ma anche lunghi periodi di calo, durati anni. Poiché è quotato in dollari, per chi spende in euro il risultato dipende anche dal cambio. A questo si aggiungono i costi: lo spread tra acquisto e vendita, la custodia e l'assicurazione per l'oro fisico, il costo annuo per gli strumenti quotati.",
          "C'è poi il rischio comportamentale. Quando l'oro finisce sui giornali per i suoi rialzi, cresce la tentazione di comprare sull'onda dell'entusiasmo, cioè spesso quando i prezzi sono già saliti. Nelle stesse fasi si moltiplicano anche le offerte ingannevoli: venditori non autorizzati, piattaforme che promettono rendimenti sull'oro, schemi di accumulo poco trasparenti. Verifica sempre chi hai di fronte e diffida di qualsiasi promessa di guadagno.",
        ],
      },
      {
        heading: "Leggere le notizie sull'oro con spirito critico",
        paragraphs: [
          "Titoli come \"l'oro non smetterà di salire\" o \"è il momento di comprare\" attirano l'attenzione, ma nessuno conosce il prezzo futuro, nemmeno gli analisti più esperti. Le previsioni servono a descrivere scenari possibili, non a dare certezze. Prima di decidere chiediti perché vuoi l'oro, per quanto tempo pensi di tenerlo e come reagiresti se il suo valore scendesse per diversi anni.",
          "Una scelta ragionata parte dal quadro complessivo: fondo di emergenza, debiti, obiettivi e altri investimenti già presenti. Solo dopo ha senso chiedersi se e in che forma l'oro possa avere un posto, fisico o tramite strumenti quotati, conoscendo costi e rischi di ciascuna strada. Per decisioni importanti valuta il confronto con un professionista abilitato, che tenga conto della tua situazione personale.",
        ],
      },
    ],
    cta: {
      title: "Richiedi la guida gratuita sull'investimento consapevole",
      text: "Rischio e rendimento, diversificazione, costi, ETF e oro fisico o tramite ETC spiegati in modo semplice. Richiedi la guida educativa in PDF: ricevi via SMS il link personale per scaricarla.",
    },
    ebookType: 'investment-education',
    country: 'IT',
    related: ['/oro-fisico-digitale', '/etf-vs-oro', '/investimenti-sicuri'],
  },
  {
    path: '/etf-vs-oro',
    title: 'ETF o oro? Differenze, costi e rischi a confronto',
    description:
      "ETF e oro a confronto: diversificazione, TER, rendimento, volatilità e ruolo di copertura. Una spiegazione educativa per capire come funzionano davvero.",
    heading: 'ETF e oro: due strumenti diversi, con ruoli diversi',
    intro:
      "\"Meglio un ETF o l'oro?\" è una domanda frequente, ma mette a confronto due cose che funzionano in modo molto diverso. Un ETF è un paniere di titoli, l'oro è una singola materia prima. Capire come nascono i loro risultati, quanto costano e quali rischi comportano aiuta a porsi la domanda giusta: quale ruolo dovrebbe avere ciascuno, se ne ha uno, nella tua situazione.",
    sections: [
      {
        heading: "Che cos'è un ETF",
        paragraphs: [
          "Un ETF è un fondo d'investimento quotato in Borsa che di solito replica un indice, per esempio quello delle principali azioni europee o mondiali, oppure un paniere di obbligazioni. In Italia gli ETF si negoziano su Borsa Italiana come un'azione, attraverso la propria banca o un broker. Con un solo acquisto si ottiene un'esposizione a decine, centinaia o migliaia di titoli, ed è questo il loro principale punto di forza: la diversificazione.",
          "Prima di scegliere un ETF conviene verificare quale indice replica e in che modo, con replica fisica o sintetica, se distribuisce i dividendi o li reinveste, in quale valuta sono espressi i titoli e quanto costa. Tutte queste informazioni si trovano nel KID, il documento contenente le informazioni chiave. Esistono anche ETF a leva o \"short\", pensati per un uso di breve periodo e poco adatti a chi inizia.",
        ],
      },
      {
        heading: "L'oro come investimento",
        paragraphs: [
          "L'oro si può detenere in forma fisica, con lingotti e monete, oppure tramite ETC, strumenti quotati che ne seguono il prezzo e che spesso sono garantiti da metallo depositato presso un custode. Le regole europee sui fondi richiedono una certa diversificazione, e per questo gli strumenti legati a una sola materia prima come l'oro sono di norma ETC e non ETF. Dal punto di vista giuridico un ETC è un titolo emesso da una società, e conta quindi anche la solidità dell'emittente.",
          "A differenza di azioni e obbligazioni, l'oro non produce reddito: non paga dividendi né cedole. Il risultato dipende soltanto dalla differenza tra prezzo di acquisto e di vendita, a sua volta legata all'equilibrio tra domanda e offerta. Il prezzo è espresso in dollari, quindi per chi ragiona in euro entra in gioco anche il cambio, che può migliorare o peggiorare il risultato finale.",
        ],
      },
      {
        heading: 'Da dove nasce il rendimento, e quanto si oscilla',
        paragraphs: [
          "Un ETF azionario partecipa, attraverso i titoli che contiene, agli utili delle imprese e ai dividendi che distribuiscono; un ETF obbligazionario incassa gli interessi delle obbligazioni in portafoglio. L'oro, invece, non ha un motore interno di questo tipo. È una differenza di fondo: nel lungo periodo il risultato di un ETF dipende dall'andamento dell'economia e delle imprese, quello dell'oro dalle scelte di chi lo compra e lo vende.",
          "Entrambi possono perdere valore, anche in misura consistente. Un ETF azionario replica il mercato anche quando scende, e nelle crisi generali può perdere una parte importante del suo valore in pochi mesi. L'oro ha conosciuto fasi di forte rialzo ma anche ribassi marcati e periodi lunghi senza progressi. Nessuno dei due protegge dalle perdite, e i risultati passati non sono indicativi di quelli futuri.",
        ],
      },
      {
        heading: 'Costi e aspetti pratici',
        paragraphs: [
          "Il costo annuo di un ETF o di un ETC si misura con il TER, espresso in percentuale del capitale e prelevato direttamente dal patrimonio dello strumento: non lo vedi addebitato, ma riduce il rendimento anno dopo anno. A questo si aggiungono le commissioni della banca o del broker a ogni operazione e lo spread tra prezzo di acquisto e di vendita. Per l'oro fisico, invece, pesano soprattutto lo spread applicato dal venditore, la custodia e l'assicurazione.",
          "Anche il trattamento fiscale può essere diverso tra ETF, ETC e oro fisico, e le regole cambiano nel tempo: prima di decidere informati presso fonti ufficiali o chiedi a un professionista. Un ultimo aspetto pratico riguarda la liquidità. ETF ed ETC molto scambiati si vendono in genere con facilità negli orari di Borsa, mentre la rivendita di lingotti e monete richiede di trovare un acquirente e può comportare verifiche sul pezzo.",
        ],
      },
      {
        heading: "Diversificazione e copertura: non è una gara",
        paragraphs: [
          "Più che scegliere un vincitore, ha senso chiedersi quale compito affidare a ciascuno strumento. Un ETF ampio e a basso costo può essere il nucleo di un portafoglio di lungo periodo, perché distribuisce il rischio su molte imprese o emittenti. L'oro viene talvolta usato come elemento di diversificazione o di copertura contro eventi estremi, proprio perché in alcune fasi si è mosso in modo diverso dai mercati azionari, anche se questo comportamento non è garantito.",
          "Prima di qualsiasi scelta conviene avere chiari alcuni punti: il fondo di emergenza è già costituito, i debiti costosi sono sotto controllo, l'orizzonte è abbastanza lungo da sopportare i ribassi. Ricorda infine che l'errore più comune spesso non riguarda lo strumento, ma il comportamento: comprare sull'onda dell'entusiasmo, quando i prezzi sono già saliti, e vendere per paura durante un calo, trasformando una perdita temporanea in una definitiva.",
        ],
        bullets: [
          'ETF: molti titoli in un solo strumento, costi in genere contenuti, segue il mercato anche al ribasso.',
          'Oro: nessun reddito, prezzo volatile e in dollari, ruolo di possibile diversificazione.',
          'In entrambi i casi: leggi il KID, confronta i costi e valuta il tuo orizzonte.',
        ],
      },
    ],
    cta: {
      title: 'Scarica la guida gratuita: investire con consapevolezza',
      text: "ETF, azioni singole, oro ed ETC, costi, interesse composto ed errori di comportamento spiegati con esempi onesti. Richiedi la guida educativa in PDF: il link personale arriva via SMS.",
    },
    ebookType: 'investment-education',
    country: 'IT',
    related: ['/oro-fisico-digitale', '/trend-oro-italiani', '/investimenti-sicuri'],
  },
  {
    path: '/segnali-trading',
    title: 'Segnali di trading: rischi, truffe e come difendersi',
    description:
      "Cosa sono i segnali di trading, perché non garantiscono nulla e come riconoscere le truffe online. Come verificare un intermediario sui registri CONSOB.",
    heading: 'Segnali di trading: cosa sono e perché serve molta prudenza',
    intro:
      "Gruppi su Telegram e WhatsApp, app e newsletter promettono di dirti quando comprare e quando vendere. Dietro la parola \"segnali\" si trovano offerte molto diverse, ma tutte hanno un limite comune: nessun segnale può garantire un risultato, e molte proposte sono vere e proprie truffe. Questa pagina spiega come funzionano, quali rischi comportano e come proteggerti.",
    sections: [
      {
        heading: 'Che cosa sono i segnali di trading',
        paragraphs: [
          "Un segnale di trading è un'indicazione operativa su uno strumento finanziario: comprare o vendere una certa azione, valuta o materia prima a un certo prezzo, spesso con un livello di uscita in perdita (stop loss) e uno in guadagno. Può essere prodotto da una persona, da un gruppo o da un software automatico, e arriva via app, chat, email o social. In alcuni casi è a pagamento, in altri è gratuito ma collegato all'apertura di un conto presso un determinato broker.",
          "Rientrano nella stessa famiglia il copy trading, cioè la copia automatica delle operazioni di un altro utente, e i cosiddetti robot di trading che promettono di operare al posto tuo. Molto spesso questi servizi riguardano CFD e altri prodotti a leva, strumenti complessi con cui la maggior parte dei conti degli investitori al dettaglio perde denaro. La leva ingrandisce gli effetti di ogni movimento: anche un segnale sbagliato di poco può costare caro.",
        ],
      },
      {
        heading: 'Perché nessun segnale garantisce risultati',
        paragraphs: [
          "Nel breve periodo i prezzi si muovono in modo difficile da prevedere, anche per i professionisti. Una serie di operazioni riuscite può dipendere dal caso o da una fase di mercato favorevole che non si ripeterà. Inoltre i risultati mostrati da chi vende segnali sono spesso selezionati, simulati o impossibili da verificare: bastano pochi screenshot ben scelti per dare l'impressione di un metodo vincente, mentre le perdite restano fuori dall'inquadratura.",
          "Anche quando un segnale è formulato in buona fede, il risultato reale può essere diverso da quello annunciato. Chi lo riceve pochi minuti dopo entra a un prezzo peggiore, paga spread, commissioni e costi di finanziamento delle posizioni, e spesso non riesce a rispettare le stesse regole di uscita. A questo si aggiunge l'aspetto emotivo: seguire indicazioni altrui porta facilmente ad aumentare il rischio dopo qualche perdita, nel tentativo di recuperare.",
        ],
      },
      {
        heading: 'Come riconoscere una truffa',
        paragraphs: [
          "Le truffe legate al trading online sono frequenti e spesso curate nei minimi dettagli: siti professionali, finti consulenti molto cordiali, piattaforme che mostrano guadagni inesistenti. Lo schema tipico parte da un piccolo versamento, prosegue con risultati apparentemente ottimi e si chiude quando la vittima prova a ritirare il denaro e le vengono chieste nuove somme per \"sbloccare\" i guadagni. Diffida se riconosci anche uno solo degli elementi elencati qui sotto.",
          "Un altro campanello d'allarme è la mancanza di informazioni chiare su chi offre il servizio: nessuna ragione sociale, nessuna sede verificabile, nessun riferimento a un'autorizzazione, oppure solo generiche licenze rilasciate in Paesi lontani. Anche i gruppi di segnali gratuiti meritano attenzione: a volte servono a spingere gli iscritti verso un broker non autorizzato, altre a far comprare a tutti gli stessi titoli poco scambiati, il cui prezzo viene gonfiato ad arte e crolla quando gli organizzatori vendono.",
        ],
        bullets: [
          'Guadagni promessi alti, rapidi o "garantiti", oppure percentuali di successo vicine al cento per cento.',
          'Contatti non richiesti al telefono, sui social o nelle app di messaggistica.',
          'Volti di personaggi famosi o finte interviste usati per pubblicizzare un sistema.',
          'Richiesta di installare programmi di controllo a distanza del computer o del telefono.',
          'Versamenti sul conto di un privato, su conti esteri o in criptovalute.',
          'Pressioni a decidere subito o a versare altro denaro per poter prelevare.',
          'Offerte di recuperare il denaro perso in cambio di una commissione anticipata.',
        ],
      },
      {
        heading: "Come verificare chi c'è dall'altra parte",
        paragraphs: [
          "In Italia la vigilanza sui mercati e sugli intermediari spetta alla CONSOB, insieme alla Banca d'Italia per alcuni aspetti. Prima di aprire un conto o di affidarti a qualcuno, controlla sul sito della CONSOB che l'intermediario compaia negli elenchi dei soggetti autorizzati a prestare servizi di investimento in Italia, e verifica che il nome e l'indirizzo del sito coincidano esattamente. Chi ti dà raccomandazioni personalizzate sugli investimenti svolge un'attività riservata: un consulente finanziario deve risultare iscritto all'albo tenuto dall'OCF.",
          "La CONSOB pubblica inoltre avvisi sui soggetti che operano senza autorizzazione e, sulla base dei poteri attribuiti dalla legge, ordina l'oscuramento dei siti internet che offrono abusivamente servizi finanziari al pubblico italiano. Gli elenchi dei siti oscurati vengono aggiornati con regolarità. Attenzione però: un sito non ancora oscurato non è per questo affidabile, perché chi truffa cambia spesso nome e indirizzo.",
        ],
      },
      {
        heading: 'Se pensi di essere caduto in una truffa',
        paragraphs: [
          "Interrompi subito i contatti e non effettuare altri versamenti, qualunque cosa ti venga promessa. Contatta la tua banca o l'emittente della carta per bloccare i pagamenti ancora possibili, cambia le password e, se hai installato programmi di controllo a distanza, rimuovili e fai controllare i dispositivi. Conserva messaggi, email, ricevute e nomi dei siti: serviranno per la denuncia alla Polizia Postale o alle altre forze dell'ordine.",
          "Puoi anche segnalare il caso alla CONSOB, contribuendo a proteggere altri risparmiatori. Diffida infine di chi, dopo la truffa, si presenta offrendo di recuperare il denaro in cambio di un anticipo: spesso si tratta degli stessi truffatori o di complici. Se vuoi avvicinarti ai mercati, parti dalla formazione, usa un conto demo per capire come funzionano le piattaforme e ricorda che un approccio di lungo periodo è spesso più semplice e meno costoso.",
        ],
      },
    ],
    cta: {
      title: 'Richiedi la guida gratuita su mercati e trading',
      text: "Come funzionano i mercati, cosa sono leva e CFD, perché sono così rischiosi e come verificare un intermediario autorizzato. Richiedi la guida educativa in PDF: il link personale arriva via SMS.",
    },
    ebookType: 'general',
    country: 'IT',
    related: ['/investimenti-sicuri', '/etf-vs-oro', '/finanza-personale'],
  },
  {
    path: '/investimenti-sicuri',
    title: 'Investimenti sicuri? Cosa significa davvero sicurezza',
    description:
      "Nessun investimento è privo di rischi. Garanzia FITD sui depositi, titoli di Stato e inflazione: cosa significa davvero sicurezza per i tuoi risparmi.",
    heading: 'Investimenti sicuri: perché il rischio zero non esiste',
    intro:
      "Chi cerca \"investimenti sicuri\" di solito vuole una cosa semplice: non perdere i propri risparmi. La verità, però, è che nessuna forma di risparmio o di investimento è priva di rischi; cambiano soltanto il tipo e l'intensità del rischio. Capire quali protezioni esistono davvero, e quali sono solo promesse, è il primo passo per proteggere il proprio denaro.",
    sections: [
      {
        heading: 'Sicurezza e rendimento vanno in direzioni opposte',
        paragraphs: [
          "Rischio e rendimento sono legati: in generale gli strumenti che possono rendere di più sono anche quelli che oscillano di più e che possono perdere di più. Un conto deposito o un titolo di Stato a breve scadenza di un Paese solido oscillano poco e rendono poco; le azioni possono rendere di più nel lungo periodo, ma anche perdere una parte consistente del loro valore in poco tempo. Un rendimento alto e garantito insieme è un segnale d'allarme, non un'occasione.",
          "Il rischio, inoltre, ha molte facce. C'è quello di mercato, quando i prezzi scendono per ragioni generali; quello dell'emittente, che può trovarsi in difficoltà o fallire; quello di liquidità, cioè non riuscire a vendere in fretta a un prezzo equo; quello di cambio, per chi investe in altre valute; e quello di inflazione, che erode il potere d'acquisto anche quando la cifra sul conto non cambia.",
        ],
      },
      {
        heading: 'Conti e depositi: la garanzia fino a 100.000 euro',
        paragraphs: [
          "I depositi presso le banche italiane sono protetti dal Fondo Interbancario di Tutela dei Depositi (FITD) fino a 100.000 euro per depositante e per banca; per le banche di credito cooperativo la stessa tutela è offerta dal Fondo di Garanzia dei Depositanti del Credito Cooperativo. La garanzia riguarda i depositi, come conti correnti e conti deposito, ma non gli strumenti finanziari come azioni, obbligazioni e fondi, anche se sono custoditi presso la stessa banca.",
          "Il limite si applica a ciascuna banca, non a ciascun conto: più conti presso la stessa banca si sommano, e marchi commerciali diversi possono appartenere alla stessa banca. In caso di crisi di un istituto, le regole europee sulla risoluzione bancaria possono coinvolgere azionisti, obbligazionisti e, per la parte che supera i 100.000 euro, anche i depositanti. Gli strumenti finanziari depositati presso una banca o una SIM, invece, restano separati dal patrimonio dell'intermediario.",
        ],
      },
      {
        heading: 'Titoli di Stato: affidabili, ma non senza rischi',
        paragraphs: [
          "BOT e BTP sono tra gli strumenti più diffusi tra i risparmiatori italiani. Se un titolo di Stato viene tenuto fino alla scadenza, di norma restituisce il valore nominale, a meno che l'emittente non diventi insolvente. Prima della scadenza, però, il suo prezzo cambia: quando i tassi di mercato salgono, i titoli già in circolazione perdono valore, e chi deve vendere in anticipo può subire una perdita. Più lunga è la scadenza, più forte è questo effetto.",
          "C'è poi il rischio legato all'emittente: anche uno Stato può avere difficoltà a rimborsare i propri debiti, e concentrare tutti i risparmi sui titoli di un solo Paese significa dipendere da un'unica economia. Una cedola fissa, infine, può perdere potere d'acquisto se l'inflazione sale; per questo esistono titoli indicizzati all'inflazione, come il BTP Italia. Anche i buoni fruttiferi postali, emessi da Cassa Depositi e Prestiti e garantiti dallo Stato, vanno valutati in base alle condizioni e all'orizzonte.",
        ],
      },
      {
        heading: "L'inflazione, il rischio che non si vede",
        paragraphs: [
          "Lasciare tutti i risparmi fermi sul conto sembra la scelta più prudente, ma non è priva di rischi. Con un'inflazione costante del 2% l'anno, pari all'obiettivo di medio termine della Banca centrale europea, 1.000 euro avrebbero tra dieci anni un potere d'acquisto di circa 820 euro di oggi. La cifra sull'estratto conto resta la stessa, ma ciò che puoi comprarci si riduce un po' ogni anno.",
          "Per il fondo di emergenza è un prezzo accettabile in cambio della disponibilità immediata. Per le somme destinate al lungo periodo, invece, conviene ragionare in termini di rendimento reale, cioè al netto dell'inflazione, dei costi e delle imposte. Un rendimento nominale che sembra interessante può trasformarsi in una perdita di potere d'acquisto, e proteggersi dall'inflazione significa quasi sempre accettare qualche oscillazione in più.",
        ],
      },
      {
        heading: 'Costruire un risparmio più sicuro',
        paragraphs: [
          "La sicurezza non dipende da un singolo prodotto, ma da come si organizza l'insieme. Il denaro che serve a breve dovrebbe restare in strumenti poco volatili e facilmente disponibili; quello destinato al lungo periodo può essere distribuito tra diverse attività, accettando oscillazioni in cambio di un potenziale di crescita. Diversificare riduce il peso di ogni singolo problema, ma non elimina il rischio di mercato.",
          "Prima di sottoscrivere qualsiasi prodotto leggi il KID, il documento con le informazioni chiave su rischi e costi, e verifica sul sito della CONSOB o della Banca d'Italia che l'intermediario sia autorizzato. Per le polizze assicurative il riferimento è l'IVASS, per i fondi pensione la COVIP. E ricorda che nessun intermediario serio garantisce un rendimento elevato senza rischi: chi lo fa, spesso con toni insistenti, merita solo diffidenza.",
        ],
        bullets: [
          'Fondo di emergenza prima di ogni investimento.',
          "Scadenze e strumenti coerenti con l'orizzonte di ogni obiettivo.",
          'Diversificazione tra attività, emittenti e Paesi.',
          'Attenzione ai costi e alle promesse troppo belle per essere vere.',
        ],
      },
    ],
    cta: {
      title: "Ricevi la guida gratuita sull'investimento consapevole",
      text: "Rischio e rendimento, diversificazione, orizzonte temporale, costi e interesse composto spiegati con esempi onesti. Richiedi la guida educativa in PDF: ti inviamo via SMS il link personale.",
    },
    ebookType: 'investment-education',
    country: 'IT',
    related: ['/finanza-personale', '/etf-vs-oro', '/segnali-trading'],
  },
  {
    path: '/finanza-personale',
    title: 'Finanza personale: le basi per gestire bene i soldi',
    description:
      "Bilancio familiare, risparmio automatico, fondo di emergenza, debiti, inflazione e pensione: le basi della finanza personale spiegate in modo semplice.",
    heading: 'Finanza personale: le basi per gestire bene il denaro di ogni giorno',
    intro:
      "Le scelte di tutti i giorni, come quanto spendere, quanto mettere da parte e quando chiedere un prestito, incidono sulla serenità di una famiglia più di qualsiasi investimento. La finanza personale non richiede competenze da esperti, ma un po' di metodo e qualche buona abitudine. Ecco i principi fondamentali, con riferimenti al contesto italiano.",
    sections: [
      {
        heading: 'Il bilancio familiare: sapere dove vanno i soldi',
        paragraphs: [
          "Molte persone sanno con precisione quanto guadagnano, ma sottovalutano quanto spendono, soprattutto in piccole spese quotidiane e abbonamenti che si rinnovano da soli. Il primo passo è annotare tutte le uscite per un mese o due, con un'app, un foglio di calcolo o un semplice quaderno, e poi raggrupparle in categorie. Le spese che arrivano una o poche volte l'anno vanno divise per dodici e accantonate ogni mese, così non ti coglieranno di sorpresa.",
          "Un riferimento spesso citato è la regola del 50/30/20: circa metà del reddito netto per le necessità, il 30% per i desideri e il 20% per il risparmio e il rimborso dei debiti. Non è una legge, e in una città con affitti alti può essere difficile rispettarla, ma aiuta a capire se qualcosa è fuori equilibrio e dove intervenire per primo.",
        ],
        bullets: [
          'Spese fisse: affitto o mutuo, bollette, assicurazioni, rate.',
          'Spese variabili necessarie: spesa alimentare, trasporti, salute.',
          'Spese discrezionali: ristoranti, viaggi, acquisti, tempo libero.',
          'Spese periodiche: imposte, bollo e assicurazione auto, manutenzione, regali.',
        ],
      },
      {
        heading: 'Risparmiare con metodo',
        paragraphs: [
          "Il consiglio più efficace è anche il più semplice: paga prima te stesso. Appena arriva lo stipendio, trasferisci in automatico una somma su un conto separato dedicato al risparmio. Aspettare di mettere da parte quello che avanza a fine mese funziona molto meno, perché spesso non avanza nulla. Anche una cifra piccola, versata con regolarità, costruisce un'abitudine che nel tempo fa la differenza.",
          "Risparmiare non significa rinunciare a tutto, ma decidere in modo consapevole dove vanno i propri soldi. Una volta l'anno rivedi abbonamenti, assicurazioni e contratti di luce, gas e telefonia, perché spesso esistono offerte più convenienti. Prima di un acquisto importante lascia passare qualche giorno: molti acquisti d'impulso perdono attrattiva. E dai un nome e un importo a ciascun obiettivo, come vacanze, auto o formazione.",
        ],
      },
      {
        heading: 'Il fondo di emergenza',
        paragraphs: [
          "Un'auto da riparare, una spesa medica imprevista, un periodo senza lavoro: gli imprevisti fanno parte della vita. Il fondo di emergenza serve ad affrontarli senza chiedere un prestito o vendere un investimento nel momento sbagliato. Un'indicazione diffusa è accantonare l'equivalente di tre-sei mesi di spese essenziali; chi ha un reddito variabile, lavora in proprio o è l'unica fonte di reddito della famiglia può preferire una riserva più ampia.",
          "Il fondo dovrebbe essere disponibile in tempi brevi, per esempio su un conto corrente o su un conto deposito senza vincoli lunghi, e al riparo dalle oscillazioni dei mercati, perché deve esserci per intero proprio quando serve. Tenerlo separato dal conto delle spese quotidiane evita di intaccarlo senza accorgersene. Ricorda che i depositi bancari sono tutelati fino a 100.000 euro per depositante e per banca.",
        ],
      },
      {
        heading: 'Debiti: scegliere e gestire con attenzione',
        paragraphs: [
          "Non tutti i debiti sono uguali. Un mutuo o un prestito per la formazione possono essere scelte ragionevoli, se la rata è sostenibile anche in caso di imprevisti. Le carte revolving, il credito al consumo per acquisti non necessari e i pagamenti rateali per beni che perdono valore in fretta sono invece spesso costosi. Per confrontare le offerte guarda sempre il TAEG, che comprende interessi e spese accessorie, e non solo il TAN.",
          "Se hai più debiti, puoi rimborsare per primo quello con il tasso più alto, che fa risparmiare più interessi, oppure quello con il saldo più basso, che dà soddisfazioni più rapide; in entrambi i casi continua a pagare regolarmente tutte le altre rate. Se sei in difficoltà, parla per tempo con la banca o la finanziaria. Per le controversie esiste l'Arbitro Bancario Finanziario, e conviene diffidare di chi promette di cancellare i debiti in cambio di un anticipo.",
        ],
      },
      {
        heading: 'Inflazione e pensione: guardare avanti',
        paragraphs: [
          "L'inflazione riduce nel tempo il potere d'acquisto del denaro: la cifra sul conto resta la stessa, ma ciò che puoi comprarci diminuisce. Per il fondo di emergenza è un prezzo accettabile in cambio della sicurezza; per le somme destinate al lungo periodo conviene invece informarsi sulle alternative, sapendo che ogni forma di investimento comporta dei rischi e che nessun rendimento è garantito.",
          "Anche la pensione fa parte della finanza personale. Con il sistema contributivo l'importo dipende dai contributi versati, e sul sito dell'INPS puoi consultare il tuo estratto conto contributivo. La previdenza complementare, con fondi pensione e PIP vigilati dalla COVIP, può affiancare la pensione pubblica, anche tramite il TFR. Più presto ci si informa, più tempo si ha per colmare eventuali lacune.",
        ],
      },
    ],
    cta: {
      title: 'Scarica la guida gratuita di educazione finanziaria',
      text: "Bilancio, fondo di emergenza, debiti, risparmio, inflazione e previdenza in un'unica guida in italiano chiaro. Richiedi il PDF educativo: ti inviamo via SMS il link personale per scaricarlo.",
    },
    ebookType: 'financial-education',
    country: 'IT',
    related: ['/pianificazione-finanziaria', '/investimenti-sicuri', '/segnali-trading'],
  },
];
