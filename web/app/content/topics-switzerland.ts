import type { TopicPage } from './types';

/**
 * Swiss variants of the topic pages (country 'CH'), in Italian for Italian-speaking readers
 * in Switzerland. Educational content only: no advice, no promises of gains, no invented
 * figures. Swiss amounts use the Swiss thousands separator (CHF 100'000).
 */
export const swissTopicPages: TopicPage[] = [
  {
    path: '/errori-trading-svizzera',
    title: 'Errori comuni nel trading in Svizzera e come evitarli',
    description:
      "Nessun piano, troppa leva, troppe operazioni, perdite da recuperare, broker non autorizzati e cambio: gli errori tipici di chi inizia in Svizzera.",
    heading: 'Gli errori più comuni di chi inizia a fare trading in Svizzera',
    intro:
      "Chi si avvicina al trading tende a sbagliare per le stesse ragioni: fretta, troppa fiducia in sé stessi e poca conoscenza degli strumenti. Conoscere in anticipo gli errori più frequenti non garantisce alcun risultato, ma aiuta a evitare perdite inutili e a capire se questo approccio fa davvero per te. Ecco quelli tipici, con un occhio alle particolarità di chi vive in Svizzera e ragiona in franchi.",
    sections: [
      {
        heading: 'Operare senza un piano scritto',
        paragraphs: [
          "L'errore più diffuso è anche il più semplice: aprire un conto e cominciare a operare senza aver deciso prima le regole. Senza un piano, le decisioni nascono dall'umore del momento, da una notizia letta di sfuggita o da un consiglio trovato in un gruppo online. Il risultato è una serie di operazioni slegate tra loro, impossibili da valutare con lucidità. Un piano non serve a prevedere il mercato, cosa che nessuno sa fare con certezza, ma a sapere in anticipo come ti comporterai quando le cose andranno bene e, soprattutto, quando andranno male.",
          "Un piano essenziale sta in una pagina: perché vuoi fare trading, quanto capitale gli dedichi, quanto sei disposto a perdere su una singola operazione e nell'arco di un mese, quando apri e quando chiudi una posizione. Aggiungi un diario in cui annotare ogni operazione e il motivo che ti ha spinto ad aprirla. Rileggerlo dopo qualche settimana è uno dei modi più efficaci per riconoscere i propri errori ricorrenti.",
        ],
      },
      {
        heading: 'Sottovalutare la leva finanziaria',
        paragraphs: [
          "Molti prodotti pensati per il trading, come i CFD, permettono di controllare una posizione molto più grande del denaro versato. È la leva finanziaria: con una leva di 10 a 1, basta un movimento contrario del 10% del sottostante per azzerare il margine impiegato. La leva non rende il mercato più favorevole, ingrandisce soltanto gli effetti di ogni oscillazione, in un senso e nell'altro. Le percentuali pubblicate dagli stessi intermediari mostrano che la maggior parte dei conti dei clienti al dettaglio perde denaro negoziando CFD.",
          "Chi vive in Svizzera deve sapere anche che le regole sulla leva e sulle tutele per i clienti al dettaglio non coincidono necessariamente con quelle dell'Unione europea e cambiano da un intermediario all'altro. Prima di aprire una posizione leggi con attenzione le condizioni: leva massima, margine richiesto, costi di finanziamento overnight, chiusura automatica delle posizioni e protezione dal saldo negativo. Se qualcosa non ti è chiaro, è già un buon motivo per non procedere.",
        ],
      },
      {
        heading: 'Fare troppe operazioni e inseguire le perdite',
        paragraphs: [
          "Dopo le prime operazioni è facile farsi prendere la mano. Ogni operazione però ha un costo: lo spread tra prezzo di acquisto e di vendita, le commissioni, gli eventuali interessi sulle posizioni tenute aperte. Più operazioni fai, più questi costi si accumulano e pesano sul risultato finale. Ancora più pericoloso è il tentativo di recuperare subito una perdita aumentando l'importo o la leva: è una reazione comprensibile, ma trasforma una perdita gestibile in un danno serio. Fermarsi dopo una serie negativa non è una sconfitta, è la regola più utile che puoi darti.",
          "C'è anche un aspetto fiscale da non trascurare. In Svizzera chi compra e vende titoli con grande frequenza, magari ricorrendo al credito o ai derivati, può essere considerato dal fisco un commerciante di titoli professionale, con conseguenze diverse rispetto a chi amministra il proprio patrimonio privato. I criteri vengono valutati caso per caso: se operi spesso, chiedi informazioni all'ufficio di tassazione del tuo cantone o a un fiduciario.",
        ],
      },
      {
        heading: 'Affidarsi a intermediari non autorizzati',
        paragraphs: [
          "Molte delle perdite più gravi non nascono dal mercato, ma da chi si presenta come broker senza esserlo. Siti curati, consulenti cordiali che richiamano più volte, numeri di telefono svizzeri: l'apparenza professionale non dice nulla sull'autorizzazione. In Svizzera la vigilanza sui mercati finanziari spetta alla FINMA, l'Autorità federale di vigilanza sui mercati finanziari, che pubblica sul proprio sito l'elenco degli istituti autorizzati e una lista di avvertimento con le società che potrebbero operare senza autorizzazione.",
          "Prima di versare anche un solo franco verifica il nome esatto della società, la sede e l'indirizzo del sito, e confrontali con i dati ufficiali: i truffatori usano spesso nomi simili a quelli di istituti reali. Se il broker ha sede all'estero, controlla anche il registro dell'autorità del suo Paese e considera che far valere i tuoi diritti può essere molto più complicato. Ricorda infine che la garanzia dei depositi esisuisse protegge i depositi presso le banche svizzere fino a CHF 100'000 per cliente e per banca, ma non copre le perdite di trading né il denaro affidato a società non autorizzate.",
        ],
      },
      {
        heading: 'Dimenticare il rischio di cambio tra CHF, EUR e USD',
        paragraphs: [
          "Chi vive in Svizzera guadagna, spende e risparmia in franchi, ma molti strumenti sono quotati in euro o in dollari. Se compri un'azione americana o apri una posizione su un indice europeo, il risultato in franchi dipende da due fattori: l'andamento dello strumento e quello del cambio. Un'operazione chiusa in guadagno in dollari può diventare una perdita in franchi se nel frattempo il dollaro si è indebolito, e naturalmente può accadere anche il contrario.",
          "Il cambio porta con sé anche costi meno visibili: molti intermediari applicano una commissione o un margine sul tasso quando convertono i franchi in un'altra valuta, a volte sia in entrata sia in uscita. Informati su come avviene la conversione, se puoi tenere il conto in più valute e quanto costa farlo. Chi vive vicino al confine e paga spesso in euro conosce bene le oscillazioni tra franco ed euro: nel trading questo effetto si somma ai movimenti del mercato.",
        ],
      },
    ],
    cta: {
      title: 'Impara le basi prima di operare',
      text: "Richiedi la guida gratuita ai mercati e al trading: spiega in modo semplice leva, CFD e rischi, e come verificare un intermediario presso la FINMA. Inserisci il tuo numero di cellulare svizzero (+41) e ricevi via SMS il link per scaricarla. È materiale educativo, non una consulenza.",
    },
    ebookType: 'general',
    country: 'CH',
    related: ['/guida-trading-svizzera', '/segnali-trading-svizzera', '/trading-automatico-svizzera'],
  },
  {
    path: '/trading-automatico-svizzera',
    title: 'Trading automatico e bot in Svizzera: rischi e verifiche',
    description:
      "Cosa sono trading automatico e bot, perché i backtest ingannano, quali truffe promettono rendite passive e come verificare un'offerta presso la FINMA.",
    heading: 'Trading automatico e bot: cosa sapere prima di fidarsi',
    intro:
      "Programmi che comprano e vendono da soli, giorno e notte, mentre tu fai altro: la promessa del trading automatico è seducente. La realtà è più complessa, perché ai rischi del trading tradizionale se ne aggiungono altri. Vediamo come funzionano questi sistemi, perché i risultati mostrati nelle pubblicità vanno presi con grande cautela e come proteggerti dalle truffe.",
    sections: [
      {
        heading: "Che cos'è il trading automatico",
        paragraphs: [
          "Nel trading automatico un programma apre e chiude posizioni seguendo regole stabilite in anticipo: per esempio comprare quando il prezzo supera una certa media e vendere quando scende sotto un altro livello. L'insieme di queste regole si chiama algoritmo e può essere semplice o molto elaborato. Sulle piattaforme di trading si parla spesso di expert advisor, altrove di bot o di robot; nel mondo delle criptovalute i bot vengono collegati direttamente al conto presso una piattaforma di scambio.",
          "Le grandi istituzioni finanziarie usano da tempo sistemi automatici, con team specializzati, infrastrutture costose e controlli del rischio rigorosi. Il privato che acquista un bot online si trova in una situazione ben diversa: non conosce davvero le regole del programma, non sa come si comporterà in condizioni di mercato estreme e spesso ignora perfino chi lo abbia sviluppato. Automatizzare le decisioni non elimina il rischio: lo rende soltanto meno visibile.",
        ],
      },
      {
        heading: 'Perché i backtest possono ingannare',
        paragraphs: [
          "Per convincere i clienti, chi vende un sistema automatico mostra spesso un backtest, cioè una simulazione di come la strategia si sarebbe comportata in passato. Il grafico è quasi sempre una linea che sale con regolarità. Il problema è che, con abbastanza tentativi, si trovano sempre regole che avrebbero funzionato bene su dati già noti: è il cosiddetto sovradattamento, in inglese overfitting. Una strategia costruita così descrive il passato, ma non dice nulla di affidabile sul futuro.",
          "Ci sono poi altri limiti. Molte simulazioni ignorano o sottostimano spread, commissioni, costi di finanziamento e slittamenti di prezzo, che nella realtà riducono i risultati. Altre escludono i periodi difficili, oppure mostrano solo i sistemi riusciti e tacciono quelli abbandonati. Nemmeno i risultati reali di un conto garantiscono qualcosa: i mercati cambiano, e una regola che ha funzionato per qualche anno può smettere di farlo all'improvviso.",
        ],
      },
      {
        heading: 'I rischi concreti dei bot',
        paragraphs: [
          "Un sistema automatico può sbagliare molto più in fretta di una persona. Un difetto nel programma, una connessione che cade, un prezzo anomalo o una notizia improvvisa possono generare una raffica di operazioni sbagliate prima che tu te ne accorga. Se il bot opera con prodotti a leva come i CFD, le perdite possono essere rapide e consistenti: la maggior parte dei conti dei clienti al dettaglio perde denaro negoziando CFD, e un algoritmo non cambia questa realtà.",
          "Prima di affidare denaro a qualsiasi sistema, chiediti se sapresti spiegare con parole tue quando compra, quando vende e quanto può perdere al massimo. Se la risposta è no, non hai ancora gli elementi per decidere. Un conto demo può aiutarti a osservare il comportamento del programma senza rischiare denaro vero, ma anche in questo caso i risultati non dicono nulla di certo su quelli futuri. Tieni presente in particolare che:",
        ],
        bullets: [
          'la leva amplifica ogni errore del programma, compresi quelli dovuti a un guasto tecnico;',
          'le operazioni molto frequenti moltiplicano i costi di spread e commissioni;',
          "collegare un bot al conto significa dare a terzi un accesso al tuo denaro tramite credenziali o chiavi d'accesso;",
          'se lo sviluppatore sparisce, nessuno aggiorna il programma né risponde dei suoi errori.',
        ],
      },
      {
        heading: 'Le truffe che promettono una rendita passiva',
        paragraphs: [
          "Intorno al trading automatico prospera un mercato di offerte ingannevoli. Annunci sui social con il volto di personaggi noti, finti articoli di giornale, presunti robot basati sull'intelligenza artificiale che promettono rendite quotidiane senza fatica: lo schema si ripete. Spesso il primo versamento richiesto è piccolo e i guadagni mostrati sulla piattaforma sembrano reali, ma sono solo numeri su uno schermo. Quando chiedi di prelevare arrivano richieste di commissioni, tasse o nuovi versamenti per sbloccare il conto.",
          "Nessun sistema serio può promettere un reddito passivo garantito. Diffida di chi ti contatta senza che tu lo abbia chiesto, di chi ti chiede di installare programmi per il controllo a distanza del computer o del telefono, di chi vuole pagamenti in criptovalute o su conti di privati e di chi ti mette fretta. Se hai già versato denaro, non pagarne altro per recuperarlo: anche molte offerte di recupero fondi sono truffe. Rivolgiti subito alla tua banca e alla polizia cantonale.",
        ],
      },
      {
        heading: "Come verificare un'offerta presso la FINMA",
        paragraphs: [
          "In Svizzera la FINMA vigila su banche, assicurazioni e altri istituti finanziari. Sul suo sito puoi consultare l'elenco degli istituti autorizzati e una lista di avvertimento che segnala le società sospettate di operare senza la necessaria autorizzazione. Attenzione: il fatto che un nome non compaia nella lista di avvertimento non significa che sia affidabile. Quello che conta è trovarlo tra i soggetti autorizzati, con gli stessi dati di contatto e lo stesso indirizzo del sito.",
          "Verifica sia chi vende il sistema sia la banca o il broker presso cui è aperto il conto su cui il bot dovrebbe operare: il denaro deve restare presso un intermediario autorizzato e a tuo nome. Se qualcuno ti chiede di trasferirlo su un conto gestito da lui, fermati. In caso di dubbi puoi segnalare l'offerta alla FINMA e chiedere un parere indipendente prima di impegnare qualsiasi somma.",
        ],
      },
    ],
    cta: {
      title: 'Capire i rischi prima di automatizzare',
      text: "Richiedi la guida gratuita ai mercati e al trading: spiega leva, CFD, conto demo e i segnali tipici delle truffe, con le verifiche da fare presso la FINMA. Inserisci il tuo numero di cellulare svizzero (+41) e ricevi via SMS il link per scaricarla. È materiale educativo, non una consulenza.",
    },
    ebookType: 'general',
    country: 'CH',
    related: ['/segnali-trading-svizzera', '/errori-trading-svizzera', '/guida-trading-svizzera'],
  },
  {
    path: '/guida-trading-svizzera',
    title: 'Guida al trading in Svizzera: un percorso passo dopo passo',
    description:
      'Un percorso per avvicinarsi al trading in Svizzera: basi dei mercati, conto demo, intermediario autorizzato FINMA, gestione del rischio e costi in franchi.',
    heading: 'Imparare il trading in Svizzera: un percorso in cinque tappe',
    intro:
      "Il trading non si impara in un fine settimana, e nessun corso o programma può garantire risultati. Si può però procedere con ordine, riducendo gli errori evitabili. Questo percorso in cinque tappe è pensato per chi vive in Svizzera e vuole capire come funzionano i mercati e quali rischi comporta operare, prima ancora di impegnare un solo franco.",
    sections: [
      {
        heading: 'Tappa 1: capire come funzionano i mercati',
        paragraphs: [
          "Il punto di partenza sono le basi. Un mercato finanziario è il luogo, oggi quasi sempre elettronico, in cui si incontrano chi vuole comprare e chi vuole vendere: azioni, obbligazioni, valute, materie prime, indici come lo SMI della Borsa svizzera. Ogni strumento ha un prezzo a cui puoi comprare e uno a cui puoi vendere, e la differenza tra i due, lo spread, è un costo che paghi a ogni operazione. Conviene anche distinguere tra investire, con un orizzonte di anni, e fare trading, cioè cercare di sfruttare movimenti di breve durata.",
          "Per studiare scegli fonti affidabili: i siti delle autorità di vigilanza, le iniziative pubbliche di educazione finanziaria, i documenti informativi dei prodotti. Diffida invece dei contenuti che mostrano solo guadagni o stili di vita lussuosi: spesso servono a vendere corsi, abbonamenti o a portarti verso un broker preciso. Impara anche il lessico di base, da margine a stop loss, perché capire i termini è il primo passo per capire i rischi.",
        ],
      },
      {
        heading: 'Tappa 2: fare pratica con un conto demo',
        paragraphs: [
          "Molti intermediari offrono un conto demo, cioè un conto di prova con denaro virtuale. È utile per imparare a usare la piattaforma, capire come si inseriscono gli ordini, come funzionano il margine e lo stop loss e quanto costano davvero le operazioni. Prenditi il tempo necessario e prova a seguire il tuo piano come se il denaro fosse vero, annotando ogni operazione in un diario.",
          "Il conto demo ha però dei limiti importanti. Perdere denaro finto non provoca le stesse emozioni che si provano con i propri risparmi, e in simulazione si tende a rischiare più di quanto si farebbe nella realtà. Anche l'esecuzione degli ordini può essere diversa. Usa la demo per fare pratica, non per convincerti di essere pronto: qualche settimana positiva in simulazione non dimostra di avere un metodo che funziona.",
        ],
      },
      {
        heading: 'Tappa 3: scegliere un intermediario autorizzato',
        paragraphs: [
          "In Svizzera la vigilanza sui mercati finanziari spetta alla FINMA, l'Autorità federale di vigilanza sui mercati finanziari. Sul suo sito trovi l'elenco degli istituti autorizzati e una lista di avvertimento con le società che potrebbero operare senza autorizzazione. Prima di aprire un conto verifica che nome, sede e sito dell'intermediario corrispondano ai dati ufficiali. Se il broker ha sede all'estero, controlla anche il registro dell'autorità del suo Paese e considera che eventuali controversie potrebbero essere più difficili da gestire.",
          "La legge svizzera sui servizi finanziari (LSerFi) distingue tra clienti privati, professionali e istituzionali, e ai clienti privati riserva le tutele più ampie. Leggi con attenzione il contratto e la documentazione dei prodotti, e diffida di chi ti propone di rinunciare a queste tutele per accedere a condizioni più aggressive. Ricorda anche che la garanzia esisuisse protegge i depositi presso le banche svizzere fino a CHF 100'000 per cliente e per banca, ma non protegge dalle perdite dovute all'andamento dei mercati.",
        ],
      },
      {
        heading: 'Tappa 4: gestire il rischio prima di cercare il rendimento',
        paragraphs: [
          "La prima regola riguarda il capitale: usa solo denaro che puoi permetterti di perdere. Non il fondo di emergenza, non somme prese in prestito, non i risparmi destinati alle spese importanti. La previdenza svizzera si basa su tre pilastri, l'AVS/AI, la previdenza professionale LPP e la previdenza individuale come il pilastro 3a: il trading non ne è un sostituto e non dovrebbe mai mettere a rischio la tua sicurezza futura.",
          "Poi servono regole precise, decise prima di aprire qualsiasi posizione. Prodotti a leva come i CFD comportano un rischio elevato, e la maggior parte dei conti dei clienti al dettaglio perde denaro negoziandoli: con una leva di 10 a 1, un movimento contrario del 10% basta ad azzerare il margine. Le regole servono proprio nei momenti difficili, quando la tentazione di improvvisare è più forte. Prima di cominciare stabilisci almeno questi punti:",
        ],
        bullets: [
          "quanto sei disposto a perdere su una singola operazione e nell'arco di un mese, e cosa fai quando raggiungi quel limite;",
          'quale leva usare, tenendo presente che una leva bassa o nulla riduce la velocità delle perdite;',
          'dove collocare lo stop loss, sapendo che in caso di salti di prezzo può essere eseguito a un livello peggiore;',
          'quando prenderti una pausa, per esempio dopo una serie di operazioni negative.',
        ],
      },
      {
        heading: 'Tappa 5: conoscere tutti i costi',
        paragraphs: [
          "I costi sono l'unico elemento che conosci in anticipo, ed è per questo che meritano attenzione. Oltre allo spread ci sono le commissioni per ogni operazione, gli interessi di finanziamento sulle posizioni a leva tenute aperte oltre la giornata, le spese di custodia e i costi di conversione quando operi in euro o in dollari partendo da un conto in franchi. Per alcune operazioni su titoli tramite intermediari svizzeri si aggiunge anche la tassa federale di bollo sulla negoziazione.",
          "Somma tutti questi costi per un mese tipico di attività e confrontali con il capitale che dedichi al trading: il risultato spesso sorprende. Annotali nel tuo diario insieme alle operazioni, così vedrai con chiarezza quanto pesano. Per gli aspetti fiscali, che dipendono anche dal cantone e dal modo in cui operi, rivolgiti all'ufficio di tassazione del tuo cantone o a un fiduciario. E chiediti con onestà se un approccio di lungo periodo, più semplice e meno costoso, non sia più adatto a te.",
        ],
      },
    ],
    cta: {
      title: 'Il primo passo: una guida per orientarti',
      text: "Richiedi la guida gratuita ai mercati e al trading: in poche pagine trovi le basi, i rischi della leva, l'uso del conto demo e come costruire un piano. Inserisci il tuo numero di cellulare svizzero (+41) e ricevi via SMS il link per scaricarla. È materiale educativo, non una consulenza.",
    },
    ebookType: 'general',
    country: 'CH',
    related: ['/errori-trading-svizzera', '/trading-automatico-svizzera', '/segnali-trading-svizzera'],
  },
  {
    path: '/oro-svizzera',
    title: 'Oro in Svizzera: fisico o ETC in franchi, costi e custodia',
    description:
      "Il ruolo della Svizzera nella raffinazione e nel commercio dell'oro, le differenze tra oro fisico ed ETC in franchi, la custodia e i costi da considerare.",
    heading: "L'oro in Svizzera: come detenerlo e cosa considerare",
    intro:
      "La Svizzera ha un legame particolare con l'oro: qui viene raffinata e commerciata una parte importante del metallo prezioso mondiale. Per chi vive nel Paese e ragiona in franchi l'oro può sembrare una scelta naturale, ma come ogni investimento comporta rischi e costi. Vediamo in quali forme si può detenere, fisica o tramite strumenti quotati, e a cosa fare attenzione.",
    sections: [
      {
        heading: "La Svizzera e il commercio dell'oro",
        paragraphs: [
          "La Svizzera è uno dei principali centri mondiali per la raffinazione e il commercio dell'oro. Nel Paese operano alcune delle più grandi raffinerie del mondo, diverse delle quali si trovano in Ticino, nel Mendrisiotto, a pochi chilometri dal confine italiano. Qui il metallo arriva grezzo o sotto forma di vecchi lingotti e riparte come lingotti di diverse dimensioni, dai grandi formati usati dagli operatori professionali ai piccoli lingotti e alle monete destinati ai privati.",
          "Anche la Banca nazionale svizzera detiene una parte delle sue riserve in oro. Questo legame storico contribuisce all'immagine dell'oro come bene rifugio, ma non ne cambia le caratteristiche di fondo: il prezzo oscilla, a volte in modo marcato, e nella storia ha conosciuto sia lunghi periodi di crescita sia lunghi periodi di calo. L'oro, inoltre, non paga interessi né dividendi: il risultato dipende soltanto dalla differenza tra il prezzo di acquisto e quello di vendita.",
        ],
      },
      {
        heading: 'Oro fisico: lingotti e monete',
        paragraphs: [
          "L'oro fisico si acquista di solito presso banche e commercianti specializzati. I lingotti riportano in genere il marchio del fonditore, il titolo di finezza e il peso, mentre le monete più diffuse tra i risparmiatori sono coniate appositamente per l'investimento. Il vantaggio principale è il possesso diretto: non dipendi dalla solidità di un emittente e puoi tenere in mano ciò che hai comprato. Acquista solo da operatori affidabili e conserva sempre la documentazione d'acquisto.",
          "Il rovescio della medaglia sono i costi. Tra il prezzo a cui compri e quello a cui potresti rivendere c'è una differenza che, in proporzione, è spesso più ampia per i pezzi piccoli: un lingotto da pochi grammi costa di più, per grammo d'oro, di uno più grande. A questo si aggiungono la custodia e l'assicurazione. Inoltre l'oro fisico si vende meno rapidamente di un titolo quotato, e al momento della vendita l'acquirente potrebbe chiedere di verificarne l'autenticità.",
        ],
      },
      {
        heading: "ETF ed ETC sull'oro in franchi",
        paragraphs: [
          "Chi non vuole custodire metallo in casa può usare strumenti quotati che seguono il prezzo dell'oro. Alla Borsa svizzera si trovano sia fondi d'investimento (ETF) sia ETC sull'oro, spesso coperti da metallo fisico depositato presso un custode. Si comprano e si vendono come un'azione, anche in franchi, e alcuni prodotti prevedono la possibilità di chiedere la consegna fisica dell'oro alle condizioni indicate nella documentazione.",
          "Attenzione però: la quotazione in franchi non elimina il rischio di cambio. Il prezzo dell'oro si forma in dollari, e il valore in franchi dipende anche dal cambio tra le due valute, salvo che il prodotto non preveda una copertura valutaria, che a sua volta ha un costo. Questi strumenti hanno inoltre un costo annuo (TER) e una natura giuridica da capire: un ETC è un titolo emesso da una società, quindi contano la solidità dell'emittente e le garanzie, mentre un fondo ha regole diverse. Leggi sempre la documentazione del prodotto.",
        ],
      },
      {
        heading: "Dove e come custodire l'oro",
        paragraphs: [
          "Tenere lingotti e monete in casa espone al rischio di furto, e non tutte le assicurazioni mobilia domestica coprono i valori oltre certi importi: verifica le condizioni della tua polizza. Un'alternativa è la cassetta di sicurezza in banca, che ha un canone annuo. Il suo contenuto resta di tua proprietà, ma non si tratta di un deposito in denaro: la garanzia esisuisse, che protegge i depositi presso le banche svizzere fino a CHF 100'000 per cliente e per banca, non riguarda l'oro custodito.",
          "Alcune banche e alcuni commercianti offrono anche la custodia professionale o un conto metallo. Qui le differenze contano molto: in certi casi l'oro è custodito separatamente e resta di tua proprietà, in altri hai soltanto il diritto a ricevere una certa quantità di metallo, cioè un credito verso l'istituto. Prima di scegliere chiedi per iscritto in quale forma è detenuto l'oro, quanto costa la custodia e cosa succederebbe in caso di insolvenza del custode.",
        ],
      },
      {
        heading: 'I costi da mettere in conto',
        paragraphs: [
          "Quando si parla di oro si guarda soprattutto al prezzo, ma il risultato finale dipende anche da spese e imposte. Per gli aspetti fiscali, per esempio come dichiarare l'oro nella sostanza o quali regole valgono quando lo si porta in Svizzera dall'estero, informati presso l'amministrazione fiscale del tuo cantone e presso le autorità doganali. Ricorda inoltre che l'oro è solo una delle possibili componenti di un patrimonio: quanto spazio dargli dipende dai tuoi obiettivi, dal tuo orizzonte temporale e dalla tua capacità di sopportare le oscillazioni.",
          "Prima di acquistare oro, in qualsiasi forma, fai un elenco completo delle spese. Solo così puoi confrontare davvero le alternative e capire di quanto deve salire il prezzo soltanto per coprire i costi. Alcune spese si pagano una volta sola, altre ogni anno, e su un orizzonte lungo anche un costo annuo che sembra modesto finisce per pesare sul risultato. Le voci principali sono:",
        ],
        bullets: [
          'la differenza tra prezzo di acquisto e prezzo di vendita, più ampia per i pezzi piccoli;',
          'le commissioni della banca o del broker per gli strumenti quotati;',
          'il costo annuo (TER) di ETF ed ETC e le eventuali spese di deposito titoli;',
          "la custodia, l'assicurazione e l'eventuale trasporto dell'oro fisico;",
          'i costi di cambio, se acquisti in una valuta diversa dal franco.',
        ],
      },
    ],
    cta: {
      title: "Capire l'oro prima di scegliere",
      text: "Richiedi la guida gratuita all'investimento: spiega rischio e rendimento, diversificazione, costi e le differenze tra ETF, azioni e oro fisico o tramite ETC. Inserisci il tuo numero di cellulare svizzero (+41) e ricevi via SMS il link per scaricarla. È materiale educativo, non una consulenza.",
    },
    ebookType: 'investment-education',
    country: 'CH',
    related: ['/trend-oro-svizzera', '/etf-vs-oro-svizzera'],
  },
  {
    path: '/trend-oro-svizzera',
    title: "Oro e franco svizzero: cosa muove la domanda d'oro",
    description:
      "I fattori che muovono la domanda di oro, il rapporto tra oro e franco svizzero e il ruolo del metallo in un portafoglio diversificato, senza previsioni.",
    heading: "Che cosa muove l'oro e che ruolo ha per chi ragiona in franchi",
    intro:
      "Si parla spesso delle tendenze dell'oro, ma nessuno può prevedere con certezza dove andrà il suo prezzo. È invece possibile capire quali fattori influenzano la domanda, come il franco cambia il risultato per chi vive in Svizzera e quale ruolo l'oro può avere accanto agli altri investimenti. Qui non troverai previsioni né obiettivi di prezzo, ma gli elementi per leggere le notizie con più spirito critico.",
    sections: [
      {
        heading: "Da dove viene la domanda di oro",
        paragraphs: [
          "L'oro è richiesto per ragioni molto diverse tra loro, e ciascuna segue logiche proprie. Una parte importante della domanda mondiale arriva dalla gioielleria, legata anche a tradizioni culturali e a ricorrenze in alcuni grandi Paesi consumatori. Un'altra parte viene dagli investitori, che acquistano lingotti, monete o strumenti quotati. Ci sono poi le banche centrali, che detengono oro nelle proprie riserve, e l'industria, che lo impiega in quantità più ridotte per esempio nell'elettronica.",
          "Sul fronte dell'offerta, l'oro proviene dalle miniere e dal riciclo di gioielli e oggetti usati. La produzione delle miniere cambia lentamente, mentre il riciclo tende ad aumentare quando il prezzo è alto. Il prezzo nasce dall'incontro di tutte queste forze, che possono spingere in direzioni opposte nello stesso momento. Per questo le spiegazioni semplici, del tipo «l'oro sale perché…», colgono quasi sempre solo una parte della realtà.",
        ],
      },
      {
        heading: 'Tassi, inflazione e incertezza',
        paragraphs: [
          "L'oro non paga interessi né dividendi. Quando i tassi d'interesse sono alti, chi lo detiene rinuncia a un rendimento che potrebbe ottenere altrove, per esempio con le obbligazioni; quando i tassi sono bassi, questa rinuncia pesa meno. Per questo i mercati guardano con attenzione alle decisioni delle banche centrali. Anche le aspettative di inflazione contano, perché molti vedono nell'oro un modo per conservare il potere d'acquisto nel lungo periodo.",
          "Le fasi di incertezza, come crisi finanziarie o tensioni internazionali, spingono spesso una parte degli investitori verso l'oro. Nessuno di questi legami è però meccanico: ci sono stati periodi di inflazione in cui l'oro è sceso e periodi di calma in cui è salito. Chi ti presenta una regola semplice e sicura per prevedere il prezzo, magari per venderti un prodotto, sta semplificando una realtà molto più complessa.",
        ],
      },
      {
        heading: 'Oro e franco svizzero',
        paragraphs: [
          "A livello internazionale il prezzo dell'oro si esprime in dollari per oncia. Per chi vive in Svizzera conta però il valore in franchi, che dipende anche dal cambio tra dollaro e franco. Se il franco si rafforza rispetto al dollaro, l'oro espresso in franchi sale meno o scende di più di quanto indichino i titoli dei giornali, che di solito citano il prezzo in dollari; se il franco si indebolisce avviene il contrario.",
          "Il franco stesso è spesso considerato una valuta rifugio, e nei momenti di tensione può essere ricercato proprio come l'oro. In quei casi, per un investitore in franchi, i due effetti possono compensarsi almeno in parte. Il legame tra oro e Svizzera ha anche una dimensione politica: nel 2014 il popolo svizzero ha respinto un'iniziativa popolare che chiedeva, tra l'altro, che la Banca nazionale detenesse almeno il 20% dei suoi attivi in oro.",
        ],
      },
      {
        heading: "Il ruolo dell'oro in un portafoglio",
        paragraphs: [
          "Chi costruisce un portafoglio diversificato a volte include una quota di oro perché il suo prezzo non si muove sempre insieme a quello di azioni e obbligazioni. In alcune fasi questo può attenuare le oscillazioni complessive, ma non è una garanzia: ci sono stati momenti in cui l'oro è sceso insieme ad altri mercati. Va ricordato inoltre che, non producendo redditi, l'oro dipende interamente dall'andamento del suo prezzo.",
          "Non esiste una quota giusta per tutti. Dipende dai tuoi obiettivi, dal tuo orizzonte temporale, dal resto del patrimonio e dalla tua capacità di sopportare le oscillazioni. Chi vive in Svizzera dovrebbe considerare anche la propria situazione previdenziale, cioè AVS/AI, LPP ed eventuale pilastro 3a, prima di decidere quanto rischio assumere con il risparmio libero. Se hai dubbi, un professionista abilitato può aiutarti a valutare la tua situazione concreta.",
        ],
      },
      {
        heading: "Come leggere notizie e previsioni sull'oro",
        paragraphs: [
          "Titoli come «l'oro verso nuovi massimi» o «è il momento di comprare» attirano l'attenzione, ma raramente aiutano a decidere. Le previsioni sui prezzi delle materie prime si rivelano spesso sbagliate, anche quando vengono da esperti, e chi le diffonde può avere interesse a vendere qualcosa. Comprare sull'onda dell'entusiasmo dopo un forte rialzo, o vendere per paura dopo un calo, è uno degli errori di comportamento più comuni.",
          "Un approccio più solido è chiedersi perché si vorrebbe detenere oro, per quanto tempo e in quale forma, e poi mantenere la quota scelta ribilanciando di tanto in tanto. Chi specula sull'oro con prodotti a leva come i CFD corre rischi molto elevati: la maggior parte dei conti dei clienti al dettaglio perde denaro negoziando CFD. Diffida di chi ti contatta per proporti affari sull'oro o sulle materie prime e verifica sempre che l'intermediario sia autorizzato dalla FINMA. Nessuna tendenza del passato garantisce i risultati futuri.",
        ],
      },
    ],
    cta: {
      title: "Investire con metodo, anche nell'oro",
      text: "Richiedi la guida gratuita all'investimento: spiega diversificazione, orizzonte temporale, costi, il ruolo dell'oro e gli errori di comportamento più comuni. Inserisci il tuo numero di cellulare svizzero (+41) e ricevi via SMS il link per scaricarla. È materiale educativo, non una consulenza.",
    },
    ebookType: 'investment-education',
    country: 'CH',
    related: ['/oro-svizzera', '/etf-vs-oro-svizzera'],
  },
  {
    path: '/etf-vs-oro-svizzera',
    title: 'ETF o oro? Un confronto per chi investe in franchi',
    description:
      "ETF e oro a confronto per chi vive in Svizzera: rischio di cambio, TER e altri costi, assenza di rendimento dell'oro e ruolo di ciascuno in un portafoglio.",
    heading: 'ETF e oro a confronto: cosa cambia per chi investe in franchi',
    intro:
      "ETF e oro vengono spesso messi a confronto, come se si dovesse scegliere tra l'uno e l'altro. In realtà sono strumenti molto diversi, con rischi, costi e ruoli differenti. Per chi vive in Svizzera e ragiona in franchi (CHF) ci sono poi aspetti specifici, a cominciare dal cambio, che vale la pena conoscere prima di prendere qualsiasi decisione.",
    sections: [
      {
        heading: 'Due strumenti di natura diversa',
        paragraphs: [
          "Un ETF è un fondo d'investimento quotato in Borsa che di solito replica un indice, per esempio quello delle principali azioni svizzere, europee o mondiali. Con un solo acquisto si ottiene un'esposizione a decine, centinaia o migliaia di titoli. Chi possiede un ETF azionario partecipa, indirettamente, ai risultati di molte imprese: utili, dividendi e crescita, ma anche crisi e fallimenti. Un ETF replica il mercato anche quando scende, quindi non protegge dalle perdite.",
          "L'oro è invece una materia prima: non produce utili né flussi di cassa, e il suo valore dipende solo da quanto qualcuno sarà disposto a pagarlo in futuro. Esistono anche ETF ed ETC che seguono il prezzo dell'oro, per cui il vero confronto non è tanto tra due tipi di prodotto quanto tra due tipi di attività: da un lato quote di imprese o titoli di debito, dall'altro un metallo prezioso.",
        ],
      },
      {
        heading: 'Il rischio di cambio visto dalla Svizzera',
        paragraphs: [
          "Molti ETF acquistabili in Svizzera sono quotati in franchi, ma questo non significa che siano privi di rischio di cambio. Un ETF sulle azioni mondiali contiene in gran parte titoli in dollari, euro e altre valute: se il franco si rafforza, il loro valore espresso in franchi diminuisce, anche se i mercati restano fermi. Alcuni ETF offrono classi con copertura valutaria, che riducono questo effetto ma hanno un costo e non lo eliminano del tutto.",
          "Lo stesso vale per l'oro, il cui prezzo si forma in dollari. D'altra parte, investire solo in titoli svizzeri per evitare il cambio concentra il rischio: l'indice SMI comprende una ventina di società e pochi grandi gruppi ne rappresentano una parte importante. Inoltre è la stessa economia da cui dipendono il tuo lavoro e la tua casa. La valuta è quindi un fattore da gestire con consapevolezza, non un motivo per rinunciare alla diversificazione.",
        ],
      },
      {
        heading: 'I costi: TER, commissioni e custodia',
        paragraphs: [
          "Per un ETF il costo più noto è il TER, il costo annuo espresso in percentuale del capitale, che viene prelevato dal patrimonio del fondo e riduce il rendimento in modo quasi invisibile. A questo si aggiungono le commissioni della banca o del broker per ogni acquisto e vendita, lo spread, le spese di deposito titoli e, per le operazioni tramite intermediari svizzeri, la tassa federale di bollo sulla negoziazione. Gli ETF e gli ETC sull'oro hanno anch'essi un TER.",
          "L'oro fisico non ha un TER, ma ha altri costi: la differenza tra prezzo di acquisto e di vendita, spesso ampia per i pezzi piccoli, la custodia e l'assicurazione. Il modo corretto di confrontare è sommare tutte le voci sull'intero periodo in cui pensi di tenere l'investimento. Su orizzonti lunghi, anche differenze di costo che sembrano piccole possono tradursi in somme rilevanti. La documentazione di ogni prodotto riporta i costi: leggila prima di acquistare.",
        ],
      },
      {
        heading: "Rendimento: dividendi contro l'assenza di flussi",
        paragraphs: [
          "Le azioni contenute in un ETF possono pagare dividendi, che l'ETF distribuisce agli investitori oppure reinveste automaticamente, secondo il tipo di fondo. I dividendi non sono garantiti e possono essere ridotti o sospesi, ma nel lungo periodo rappresentano una componente importante del risultato delle azioni. L'oro, invece, non paga nulla: l'unico risultato possibile è la differenza tra il prezzo di vendita e quello di acquisto, al netto dei costi.",
          "Anche la fiscalità è diversa nei due casi. Sui dividendi di società svizzere viene trattenuta l'imposta preventiva, che chi risiede in Svizzera può in genere recuperare dichiarando correttamente i titoli; sui dividendi esteri valgono regole ulteriori. Sia gli ETF sia l'oro fanno parte della sostanza da dichiarare. Per i dettagli, che possono dipendere dalla tua situazione, rivolgiti all'ufficio di tassazione del tuo cantone o a un fiduciario.",
        ],
      },
      {
        heading: 'Come possono convivere in un portafoglio',
        paragraphs: [
          "Per molti investitori la domanda giusta non è «ETF o oro?», ma quale ruolo dare a ciascuno. Gli ETF azionari e obbligazionari diversificati possono costituire la base di un portafoglio di lungo periodo, mentre l'oro viene talvolta usato come componente complementare, proprio perché il suo prezzo non si muove sempre insieme a quello delle azioni. Nessuna combinazione, però, elimina il rischio di perdite.",
          "La scelta dipende dai tuoi obiettivi, dall'orizzonte temporale e dalla tua capacità di sopportare le oscillazioni. Tieni conto anche della previdenza: alcune soluzioni del pilastro 3a permettono di investire in fondi, con regole proprie. Evita invece, se stai iniziando, gli ETF a leva o «short», pensati per un uso di breve periodo. Se vuoi un parere sulla tua situazione concreta, rivolgiti a un professionista abilitato e indipendente.",
        ],
      },
    ],
    cta: {
      title: 'Confrontare gli strumenti con metodo',
      text: "Richiedi la guida gratuita all'investimento: spiega rischio e rendimento, diversificazione, costi e TER, e le differenze tra ETF, azioni e oro. Inserisci il tuo numero di cellulare svizzero (+41) e ricevi via SMS il link per scaricarla. È materiale educativo, non una consulenza.",
    },
    ebookType: 'investment-education',
    country: 'CH',
    related: ['/oro-svizzera', '/trend-oro-svizzera', '/guida-trading-svizzera'],
  },
  {
    path: '/segnali-trading-svizzera',
    title: 'Segnali di trading in Svizzera: rischi e truffe da evitare',
    description:
      "Cosa sono i segnali di trading, perché non garantiscono nulla, quali sono i campanelli d'allarme delle truffe e come usare la lista di avvertimento FINMA.",
    heading: 'Segnali di trading: cosa sono e perché non garantiscono nulla',
    intro:
      "Gruppi su app di messaggistica, canali a pagamento, notifiche che indicano quando comprare e quando vendere: i segnali di trading promettono di togliere la fatica di decidere. Ma nessun segnale può garantire un risultato, e dietro molte offerte si nascondono vere e proprie truffe. Ecco come funzionano, quali rischi comportano e come verificare chi li propone.",
    sections: [
      {
        heading: 'Che cosa sono i segnali di trading',
        paragraphs: [
          "Un segnale di trading è un'indicazione operativa: comprare o vendere un certo strumento, a un certo prezzo, spesso con un livello di stop loss e un obiettivo di uscita. I segnali possono essere prodotti da una persona, da un gruppo di analisti o da un programma automatico, e vengono inviati tramite app di messaggistica, e-mail, social network o piattaforme dedicate. Alcuni sono gratuiti, altri richiedono un abbonamento.",
          "Esiste anche il copy trading, in cui le operazioni di un altro utente vengono replicate in automatico sul tuo conto. Qualunque sia la forma, il principio è lo stesso: affidi le tue decisioni a qualcun altro, di cui spesso conosci solo un nome, una foto e qualche risultato dichiarato. Le perdite, però, restano interamente tue, e di solito chi fornisce i segnali non risponde di quello che succede sul tuo conto.",
        ],
      },
      {
        heading: 'Perché un segnale non garantisce nulla',
        paragraphs: [
          "Nel breve periodo i prezzi si muovono in modo difficile da prevedere, anche per i professionisti. Un fornitore di segnali può azzeccare una serie di operazioni per caso e poi sbagliarne altrettante. I risultati che pubblicizza sono quasi sempre impossibili da verificare: schermate facili da ritoccare, operazioni perdenti omesse, percentuali di successo che non dicono nulla su quanto si è perso quando le cose sono andate male.",
          "Anche un segnale ben costruito arriva a te con un certo ritardo, e il prezzo a cui riesci a eseguirlo può essere diverso da quello indicato. Spread e commissioni riducono ulteriormente il risultato. Se poi i segnali riguardano prodotti a leva come i CFD, il rischio cresce molto: la maggior parte dei conti dei clienti al dettaglio perde denaro negoziando CFD. Seguire ordini altrui, senza capirne le ragioni, non ti insegna nulla e non ti protegge.",
        ],
      },
      {
        heading: "I campanelli d'allarme delle truffe",
        paragraphs: [
          "Il mondo dei segnali è uno dei terreni preferiti dai truffatori. Spesso il gruppo gratuito serve solo ad attirarti verso un broker preciso, non autorizzato, o verso un servizio «premium» sempre più costoso. In altri casi i partecipanti vengono spinti a comprare tutti insieme un titolo poco scambiato, mentre gli organizzatori, che lo avevano acquistato prima, lo rivendono a prezzi gonfiati e lasciano agli altri le perdite.",
          "Un servizio serio spiega i rischi, non nasconde le operazioni in perdita e non ti chiede di decidere in fretta. Nessuno dei campanelli d'allarme elencati qui sotto, preso da solo, prova con certezza una truffa, ma quando ne compaiono due o tre insieme è il momento di fermarsi e fare con calma qualche verifica in più prima di versare denaro. Diffida in particolare quando:",
        ],
        bullets: [
          'ti vengono promessi guadagni alti, rapidi o «garantiti», o percentuali di successo elevatissime;',
          'il fornitore mostra auto di lusso, viaggi e schermate di guadagni invece di spiegare rischi e metodo;',
          'vieni contattato da sconosciuti al telefono, sui social o nelle app di messaggistica;',
          'ti chiedono di aprire un conto presso un broker indicato da loro o di versare denaro a privati o in criptovalute;',
          'ti mettono fretta, o ti chiedono nuovi versamenti per «sbloccare» i guadagni;',
          "dopo una perdita qualcuno si offre di recuperare il denaro in cambio di una commissione anticipata.",
        ],
      },
      {
        heading: 'Come verificare chi propone i segnali: la FINMA',
        paragraphs: [
          "In Svizzera la vigilanza sui mercati finanziari spetta alla FINMA, l'Autorità federale di vigilanza sui mercati finanziari. Sul suo sito puoi consultare l'elenco degli istituti autorizzati e una lista di avvertimento con le società che potrebbero operare senza autorizzazione. Controlla sia chi offre i segnali sia il broker che ti viene suggerito, confrontando nome esatto, sede e indirizzo del sito: i truffatori imitano spesso i nomi di istituti reali. Se un nome non compare nella lista di avvertimento, questo non basta a renderlo affidabile.",
          "Non farti rassicurare da un numero di telefono svizzero: un prefisso +41 sul display non prova nulla, perché i numeri possono essere falsificati. Nemmeno un sito in italiano o un indirizzo a Lugano o a Zurigo sono una garanzia. Se hai già versato denaro a un soggetto sospetto, non inviarne altro, conserva tutta la documentazione e rivolgiti subito alla tua banca e alla polizia cantonale. Puoi anche segnalare il caso alla FINMA.",
        ],
      },
      {
        heading: 'Un approccio più solido: imparare a decidere',
        paragraphs: [
          "L'alternativa ai segnali non è un segnale migliore, ma la capacità di capire ciò che fai. Significa conoscere gli strumenti e i loro rischi, fare pratica con un conto demo, scrivere un piano con regole precise di entrata, uscita e perdita massima, e usare soltanto denaro che puoi permetterti di perdere. Non il fondo di emergenza, né i risparmi destinati alla previdenza.",
          "Questo percorso è più lento di un messaggio che ti dice cosa comprare, ma ti lascia il controllo delle decisioni e ti permette di riconoscere le offerte ingannevoli. Potresti anche concludere che il trading non fa per te e che un approccio di lungo periodo, più semplice e meno costoso, è più adatto alla tua situazione: è una conclusione del tutto legittima.",
        ],
      },
    ],
    cta: {
      title: 'Impara a riconoscere le offerte ingannevoli',
      text: "Richiedi la guida gratuita ai mercati e al trading: spiega rischi della leva, conto demo, piano di trading e come verificare un intermediario presso la FINMA. Inserisci il tuo numero di cellulare svizzero (+41) e ricevi via SMS il link per scaricarla. È materiale educativo, non una consulenza.",
    },
    ebookType: 'general',
    country: 'CH',
    related: ['/trading-automatico-svizzera', '/errori-trading-svizzera', '/guida-trading-svizzera'],
  },
];
