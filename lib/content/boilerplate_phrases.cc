#include "content/boilerplate_phrases.h"

#include <algorithm>
#include <array>

namespace pagesieve::content {
namespace {

constexpr TextRole B = TextRole::kBoilerplate;
constexpr TextRole T = TextRole::kTeaserLabel;
constexpr TextRole L = TextRole::kTailLabel;
constexpr uint8_t kAny = kAnyWords;

// Each phrase is kept short of what article text says: a credit line must
// name "this article", a label must be nearly the whole block, and the
// generous byte limits only go with phrases no article sentence starts with.
// The measurements behind the choices are in docs/content-extraction.md.
// clang-format off
constexpr Phrase kPhrases[] = {
    // Credit and syndication lines.
    {"this article|story|post|piece|essay|interview|column|feature|report first|originally appeared|ran|published|posted|appears", B, kAny, 400},
    {"this article|story|post|piece|essay|interview|column|feature|report|content was|is|has|had ?been ?first|originally|also published|posted|produced|republished|reprinted|reposted|adapted|excerpted|written|made|distributed|syndicated|updated|created|funded|supported|translated|part|originally|first", B, kAny, 400},
    {"this article|story|post|piece|content appeared|appears ?first|originally in|on|at", B, kAny, 400},
    {"originally published|appeared|posted|ran at|on|in|by|as", B, kAny, 400},
    {"first published|appeared|posted at|on|by", B, kAny, 400},
    {"reprinted|republished|reposted|published|used|shared with ?kind permission", B, kAny, 400},
    {"reprinted|republished|reposted|excerpted|adapted from|courtesy|by", B, kAny, 300},
    {"a|an ?edited|earlier|shorter|longer|different|previous version of this article|story|post|piece|essay", B, kAny, 400},
    {"this article|story|content|material|site|website is|are ?the copyrighted|protected|copyright", B, kAny, 400},
    {"written permission|consent must|is", B, kAny, 300},
    {"copyright|copyrights ©|#|c|by|all", B, kAny, 200},
    {"©", B, kAny, 200},
    {"all rights reserved", B, kAny, 200},
    {"dieser|diese artikel|beitrag|text|essay|kommentar|gastbeitrag|bericht|rezension|interview|kolumne|geschichte erschien|erscheint|erschienen", B, kAny, 400},
    {"dieser|diese artikel|beitrag|text|essay|kommentar|gastbeitrag|bericht|rezension|interview|kolumne|geschichte ist|wurde|war ?am|im|in|bei|auf|zuerst|erstmals|ursprünglich|bereits zuerst|erstmals|ursprünglich|veröffentlicht|publiziert|erschienen|erstveröffentlicht|übernommen|übersetzt|aktualisiert", B, kAny, 400},
    {"dieser|diese|der artikel|beitrag|text|kommentar|gastbeitrag gibt|spiegelt ?ausschließlich|ausschliesslich|nur|allein die meinung|ansicht|auffassung|position", B, kAny, 400},
    {"dieser|diese artikel|beitrag|text|post|seite enthält|beinhaltet|enthalten werbung|affiliate|affiliatelinks|partnerlinks|werbelinks|provisionslinks|anzeigen|links|produktplatzierung|produktplatzierungen", B, kAny, 400},
    {"zuerst|erstmals|ursprünglich erschienen|veröffentlicht|publiziert", B, kAny, 400},
    {"erstveröffentlichung", B, kAny, 200},
    {"erschienen in|bei|auf|im", B, kAny, 150},
    {"mit ?freundlicher genehmigung", B, kAny, 300},
    {"nachdruck|abdruck", B, kAny, 200},
    {"materiał chroniony", B, kAny, 300},
    // Photo credits.
    {"foto|fotos|photo|photos|bild|bilder|image|images|picture|credit|credits|quelle|quellen|bildquelle|bildquellen|fotoquelle|titelbild|titelfoto|beitragsbild|headerbild|bildnachweis|fotonachweis|copyright|source|fuente|crédito|credito", B, kAny, 150, true},
    {"photo|image|picture|header|featured|cover|title|lead credit|credits|source|caption", B, kAny, 150},
    {"bild|foto via|von|quelle", B, kAny, 150},
    {"abbildung|abb|grafik|schaubild ?#", B, kAny, 200, true},
    {"beitragsbild|titelbild|headerbild|symbolbild|symbolfoto|bildnachweis|fotonachweis|fotocredit|fotocredits|bildrechte|bildquelle|bildquellen|bildnachweise", B, kAny, 150},
    // Ad labels.
    {"advertisement|advertisements|advertising|advertorial|ad|ads|anzeige|werbung|sponsored|promoted|sponsor|publicidad|publicité|pubblicità|reklama|reklame|promotion", B, 0, 60},
    {"advertisement|anzeige|werbung|sponsored|promoted", B, kAny, 200, true},
    {"werbung|anzeige dieser|dieses|diese|enthält|beitrag|artikel|post", B, kAny, 300},
    {"sponsored|promoted|partner|paid content|post|story|stories|links|by|partnership|promotion", B, 3, 80},
    {"story|article|content|text|video continues|resumes below|after", B, 3, 100},
    {"continue reading|scrolling below|after|the", B, 4, 100},
    {"scroll to|down continue|read|for", B, 5, 120},
    {"weiterlesen|weiter|mehr|text nach|unter der|dem anzeige|werbung|werbeblock", B, 2, 80},
    {"lesen sie nach|unter der anzeige|werbung", B, 2, 80},
    {"artikel|text|beitrag|inhalt wird|geht nach|unterhalb der anzeige|werbung", B, 3, 100},
    // Affiliate disclosures.
    {"this post|article|page|site|video|review ?may contains|contain|includes|include affiliate|sponsored|paid|references|links", B, kAny, 400},
    {"affiliate links|link|disclosure|hinweis|disclaimer", B, kAny, 400},
    {"as an amazon associate", B, kAny, 400},
    {"instant|immediate|unlimited|unrestricted|full|digital access to|for", B, kAny, 200},
    {"originalartikel|originalbeitrag|originaltext", B, 4, 80},
    {"zum|zur originalartikel|originalbeitrag|quelle", B, 4, 80},
    {"we|i may|might|could earn|receive|get ?a|an ?small commission|compensation|affiliate", B, kAny, 400},
    {"bei den|allen ?mit ?markierten|gekennzeichneten|genannten verlinkungen|links handelt", B, kAny, 400},
    // Cookie and consent notices.
    {"we|this|our ?website|site|webpage|page|portal use|uses|utilise|utilises|utilize|utilizes ?own cookies|cookie|tracking|akismet", B, kAny, 600},
    {"by using|visiting|browsing|accessing|continuing ?to ?use|browse|using this|our|the website|site|webpage|page|portal", B, kAny, 400, false, "cookies|cookie|agree|consent|accept|privacy|terms|policy"},
    {"we|wir value|respect|care|respektieren|achten|schätzen your|deine|ihre privacy|privatsphäre|datenschutz", B, kAny, 600},
    {"cookie|cookies settings|policy|preferences|consent|notice|hinweis|einstellungen|richtlinie|banner|zustimmung", B, kAny, 600},
    {"wir|diese|unsere ?website|webseite|seite|internetseite|homepage verwenden|nutzen|benutzen|setzen|verwendet|nutzt|benutzt|setzt|speichert ?auf ?unserer|unseren|dieser ?website|webseite|seite|webseiten|internetseite cookies|cookie|tracking|akismet", B, kAny, 600},
    {"um unsere|unser website|webseite|seite|internetseite|angebot", B, kAny, 600, false, "cookies|cookie|zustimmung|einwilligung|datenschutz|tracking"},
    {"alle|all ?cookies akzeptieren|zulassen|ablehnen|accept|reject|allow", B, 2, 100},
    {"accept|reject|allow|akzeptieren all|alle ?cookies", B, 2, 100},
    // Subscriptions and newsletters.
    {"newsletter|newsletters", T, 0, 40},
    {"newsletter|newsletters", B, kAny, 200},
    {"our|the|unser|unseren|der|den|ihr|dein ?free|kostenlose|kostenlosen|daily|weekly|täglicher|wöchentlicher newsletter", T, 3, 80},
    {"subscribe|abonnieren|abonniere|anmelden|registrieren", T, 0, 40},
    {"subscribe|subscribing to|now|today|for|and|here|or", B, kAny, 300},
    {"sign up|in ?for|to|now|here|today", B, kAny, 300, false, "newsletter|newsletters|email|inbox|updates|alerts|notifications|account|digest|briefing|subscription|membership|trial|comment|comments|reading|get|best|latest|week|weekly|daily"},
    {"sign up|in", T, 0, 40},
    {"get|receive the|our|a|your ?* newsletter|newsletters|briefing|digest|inbox", B, kAny, 300},
    {"get|receive the|our latest|best|top", B, kAny, 300, false, "news|stories|updates|newsletter|deals|inbox|headlines|articles|email"},
    {"never miss", B, kAny, 300},
    {"don t miss out|another|any|our", B, kAny, 200},
    {"stay|keep ?up|in ?to date|updated|informed|connected|tuned|current|touch|ahead|posted", B, kAny, 300, false, "newsletter|news|updates|latest|subscribe|follow|sign|work|twitter|facebook|instagram|email|inbox|stories|us"},
    {"to read|view|continue|access|unlock|see|keep ?the|this ?full|entire|whole|rest ?of ?the|this story|article|content|reading|post|piece", B, kAny, 300, false, "subscribe|subscriber|subscription|sign|log|register|account|member|membership|login|premium|free"},
    {"already a|an subscriber|member|customer|user", B, kAny, 300},
    {"if you re|are", B, kAny, 300, false, "subscriber|member|registered|customer|subscribed"},
    {"if you enjoyed|liked|like|enjoy this|reading|our", B, kAny, 300},
    {"we d|we want|would ?like|love to hear", B, kAny, 300},
    {"submit|send your|a letter|letters|tip|tips|story", B, kAny, 200},
    {"hazte miembro|socio", B, kAny, 200},
    {"mira|suscríbete|suscribete|síguenos|siguenos|únete|unete", B, kAny, 200, false, "youtube|canal|telegram|whatsapp|twitter|facebook|instagram|newsletter|boletín"},
    {"zapraszamy", B, kAny, 200, false, "subskrypcji|newslettera|newsletter"},
    {"alle|sämtliche ?angaben ohne gewähr", B, kAny, 200},
    {"angaben ohne gewähr", B, kAny, 200},
    {"you ve|you have reached|read|used|hit your|the|all|# ?free ?monthly ?# article|articles|limit|stories|story|free|maximum", B, kAny, 300},
    {"become a member|subscriber|supporter|patron|friend", B, kAny, 300},
    {"support our|independent|quality|local|this journalism|work|reporting|newsroom", B, kAny, 400, false, "donate|donation|journalism|subscribe|member|membership|contribute|contribution|patreon|paypal|today|now"},
    {"support us", B, kAny, 300},
    {"unterstützen sie|unterstütze|unterstützt uns|unsere|unseren|diese|unabhängigen", B, kAny, 400, false, "journalismus|arbeit|redaktion|spende|spenden|abo|mitglied|unabhängigen|form|abonnement|steady|paypal"},
    {"jetzt|hier abonnieren|anmelden|registrieren|bestellen|testen|kostenlos|herunterladen|teilen|spenden|unterstützen|mitglied|weiterlesen|lesen", B, kAny, 150},
    {"click|tap here", B, kAny, 150},
    {"hier|bitte klicken|klick", B, kAny, 150},
    {"klicken|klick sie ?hier", B, kAny, 150},
    {"melden sie sich|melde dich|abonnieren sie|abonniere|bestellen sie|registrieren sie sich|registriere dich|erhalten sie|verpassen sie|verpasse", B, kAny, 300, false, "newsletter|abonnement|abo|benachrichtigungen|updates|infomail|mail|email|inbox|postfach|newslettern"},
    {"sie sind|bist ?aktuell|derzeit|momentan|noch nicht eingeloggt|angemeldet|registriert", B, kAny, 200},
    {"you must|need|have to ?be logged|signed|log|sign in", B, kAny, 200, false, "comment|comments|reply|post|read|view|access|subscribe|reading"},
    {"log|sign in|into to", B, kAny, 200, false, "comment|comments|reply|post|read|reading|continue|view|access"},
    {"du musst|müsst|sie müssen eingeloggt|angemeldet|registriert", B, kAny, 200},
    {"follow|folgen|folge|folgt us|uns|me|mir|sie|the", B, kAny, 300, false, "twitter|facebook|instagram|linkedin|youtube|tiktok|x|mastodon|telegram|threads|bluesky|social|newsletter"},
    {"for the latest|more", B, kAny, 250, false, "download|app|apps|subscribe|newsletter|follow|twitter|facebook|instagram"},
    // Comment sections.
    {"comments|comment|kommentare|kommentar|comentarios|commentaires|commenti|komentarze|reacties|leserkommentare", L, 0, 40},
    {"reader|leser comments|kommentare", L, 0, 40},
    // Chinese (traditional and simplified), Japanese and Korean: "留言列表 (42)".
    {"留言|留言列表|留言板|評論|评论|回應|回应|コメント|댓글 ?#", L, 0, 40},
    {"# comments|comment|kommentare|kommentar|responses|response|replies|reply|antworten|antwort|reaktionen|thoughts|commentaires|comentarios|komentarzy|komentarze|komentarz", L, kAny, 200},
    {"one|two|three response|responses|thought|thoughts|comment|comments|reply|replies|kommentar|kommentare|antwort|antworten|gedanken", L, kAny, 200},
    {"no|keine comments|kommentare|responses|antworten yet|bisher|vorhanden", B, kAny, 80},
    {"leave|post|add|write|submit|schreibe|schreiben|hinterlasse|hinterlassen|verfasse|verfassen ?sie ?a|your|einen|deinen|ihren|eine|ihre|deine comment|reply|response|kommentar|antwort", L, kAny, 200},
    {"comments|kommentare are|sind closed|disabled|geschlossen|deaktiviert", B, kAny, 100},
    {"verraten|verrate|verratet|schreibt|schreib|erzählt|erzähl|sagt|sag|lasst|lass|teilt|teil", B, kAny, 200, false, "kommentaren|kommentar|kommentare"},
    {"let|tell|share", B, kAny, 200, false, "comments|comment"},
    {"kommentar|kommentare schreiben|verfassen|hinzufügen|anzeigen|lesen|einblenden", L, 0, 60},
    {"kommentieren|commenting", L, 0, 40},
    {"diskutieren sie|diskutiere|diskutiert mit", L, kAny, 150},
    {"join the discussion|conversation|debate", L, kAny, 150},
    {"los|las comentarios|opiniones publicados|publicadas|vertidas|expresadas", B, kAny, 400},
    {"para ?poder comentar|comentar", B, kAny, 200},
    // Author boxes.
    {"about the author|authors|writer|contributor|reporter", L, 0, 60},
    {"about the author|authors|writer|contributor|reporter", B, kAny, 400},
    {"über den|die autor|autorin|autoren|autorinnen|verfasser|verfasserin", L, 0, 60},
    {"über den|die autor|autorin|autoren|autorinnen|verfasser|verfasserin", B, kAny, 400},
    {"zur person|autorin|autor", L, 0, 40},
    {"zum autor", L, 0, 40},
    {"der autor|autorin", L, 0, 40},
    {"die autorin|autoren", L, 0, 40},
    {"the author|authors", L, 0, 40},
    {"author|autor|autorin|authors ?bio|info|box", L, 0, 40},
    {"autorenbox|autoreninfo|autorinfo", L, 0, 40},
    // Related articles.
    {"related", B, kAny, 200, true},
    {"related ?articles|stories|posts|content|coverage|reading|links|news|topics|videos|items|pages|searches|tags|products|resources|questions|guides|reviews|recipes", T, 0, 60},
    {"read more|also|next|further", T, 3, 80},
    {"read more|also|next|further", B, kAny, 200},
    {"also read|see", T, 0, 40},
    {"also read|see", B, kAny, 200},
    {"see also|more", T, 0, 40},
    {"see also", B, kAny, 200},
    {"further reading", T, 0, 40},
    {"more on|about|from|in|stories|news|articles|coverage|videos|like", T, 4, 80},
    {"you may|might|could|will|would ?also like|enjoy|love", T, 4, 80},
    {"you may|might|could ?also be interested", T, 4, 80},
    {"recommended ?for ?you|articles|stories|reading|posts|videos|content", T, 0, 60},
    {"most read|popular|viewed|shared|commented|recent", T, 2, 60},
    {"meistgelesen|meistgelesene|meistgelesenen|meistkommentiert|meistkommentierte|beliebteste|beliebtesten", T, 2, 60},
    {"am meisten gelesen", T, 2, 60},
    {"trending ?now|stories|articles|topics|news", T, 0, 40},
    {"top stories|news|articles|themen|meldungen|nachrichten", T, 3, 60},
    {"editor s|editors picks|choice", T, 0, 40},
    {"latest|neueste|neuesten|aktuelle|aktuellste ?news|articles|stories|posts|artikel|beiträge|nachrichten|meldungen|videos", T, 0, 40},
    {"don t miss", T, 0, 40},
    {"mehr zum thema", T, 5, 80},
    {"mehr zu|zur|zum|über|aus|von|vom|themen|artikel|beiträge|news|nachrichten|lesen|erfahren|infos", T, 4, 80},
    {"auch|ebenfalls interessant|lesenswert|spannend", T, 2, 60},
    {"das|dies|diese|folgende|folgendes|weitere|was ?thema|themen|artikel|beiträge|beitrag|news könnte|könnten|dürfte|dürften", T, 6, 100},
    {"könnte|könnten sie|dich|euch auch", T, 3, 60},
    {"lesen sie|lest|lies auch|außerdem|mehr|hier|weiter|dazu|zum", T, 4, 80},
    {"lesen sie|lest|lies auch|außerdem|mehr|hier|weiter|dazu|zum", B, kAny, 200},
    {"weitere|weiterführende|ähnliche|verwandte|passende|empfohlene|neueste|aktuelle|letzte artikel|beiträge|themen|nachrichten|meldungen|news|links|inhalte|tipps|posts|videos|rezepte|tourentipps|geschichten|stories|informationen|infos", T, 4, 80},
    {"zum weiterlesen|thema", T, 3, 60},
    {"passend zum thema|dazu", T, 3, 60},
    {"schon gelesen|gesehen", T, 0, 40},
    {"siehe auch", T, 0, 40},
    {"empfehlungen|empfehlung", T, 0, 40},
    {"unsere empfehlungen|empfehlung", T, 2, 60},
    {"empfehlungen|empfehlung aus|der|für", T, 3, 60},
    {"le|te puede|pueden interesar", T, 0, 40},
    {"le|te puede|pueden interesar", B, kAny, 200},
    {"lea|lee|leer también|tambien|más|mas", T, 0, 40},
    {"lea|lee|leer también|tambien", B, kAny, 200},
    {"noticias|artículos|articulos|notas relacionadas|relacionados", T, 0, 60},
    {"más|mas noticias|leídas|leidas|vistas|leído|leido", T, 0, 40},
    {"à|a lire aussi|également|egalement", T, 0, 40},
    {"à|a lire aussi|également|egalement", B, kAny, 200},
    {"lire aussi|également|egalement", T, 0, 40},
    {"vous aimerez|pourriez|pourrez ?aussi ?aimer", T, 2, 60},
    {"lire aussi|également|egalement", B, kAny, 200},
    {"voir aussi", T, 0, 40},
    {"sur le même|meme sujet", T, 0, 60},
    {"articles similaires|liés|lies|recommandés|recommandes", T, 0, 60},
    {"leggi anche", T, 0, 40},
    {"leggi anche", B, kAny, 200},
    {"articoli correlati", T, 0, 40},
    {"czytaj też|także|również|więcej", T, 0, 40},
    {"czytaj też|także|również|więcej", B, kAny, 200},
    {"zobacz też|także|również", T, 0, 40},
    {"zobacz też|także|również", B, kAny, 200},
    {"polecamy", T, 0, 40},
    {"inne artykuły|teksty|wpisy", T, 2, 60},
    {"korzystamy z|ze cookies|plików", B, kAny, 600},
    {"lees ook|meer", T, 0, 40},
    {"lees ook", B, kAny, 200},
    {"gerelateerde artikelen|berichten", T, 0, 60},
    // Sharing, rating and the article's metadata.
    {"share|teilen|compartir|partager|condividi|udostępnij|delen|teile", B, 0, 40},
    {"share this|on|via|the|article|story|post|page|with|it", B, 4, 60},
    {"diesen|den artikel|beitrag|post|seite|inhalt teilen|empfehlen|drucken|versenden|speichern|merken", B, 2, 80},
    {"artikel|beitrag|seite|rezept teilen|drucken|ausdrucken|versenden|empfehlen|merken|speichern|vorlesen|anhören|bewerten", B, 2, 60},
    {"möchten|möchtest|willst|wollen sie|du|ihr ?den|diesen|uns|unseren ?artikel|beitrag|newsletter teilen|empfehlen|bewerten|abonnieren|unterstützen", B, kAny, 150},
    {"gefällt|gefiel|gefallen dir|ihnen|euch", B, kAny, 400},
    {"gefällt mir", B, 4, 60},
    {"teilen sie|teile dies|diesen|den ?beitrag|artikel mit|auf", B, kAny, 100},
    {"mit unserem|unseren newsletter", B, kAny, 300},
    {"view|show|load|read|see ?all ?# comments|comment|kommentare|kommentar", B, kAny, 60},
    {"war|ist der|dieser|die|diese|dieses ?artikel|beitrag|text|seite|inhalt|information|informationen|tipp|ratgeber hilfreich|nützlich|informativ|interessant|lesenswert", B, kAny, 100},
    {"was|is this|the ?article|page|post|information|answer|content|guide helpful|useful|informative", B, kAny, 100},
    {"did you find this|the|it", B, kAny, 100},
    {"how useful|helpful was|is", B, kAny, 100},
    {"rate this|the ?article|post|recipe|page|story", B, kAny, 80},
    {"bewerten sie|bewerte|bewertet ?diesen|den|dieses|diese ?artikel|beitrag|rezept", B, kAny, 80},
    {"noch keine bewertungen|bewertung|kommentare|reviews|ratings", B, kAny, 80},
    {"no ratings|reviews|comments yet", B, kAny, 80},
    {"print|drucken|imprimir|imprimer|stampa|drukuj|email|e mail|tweet|pin", B, 2, 40},
    {"tags|tag|schlagworte|schlagwörter|stichworte|stichwörter|keywords|themen|bewerten|kategorie|kategorien|category|categories|rubrik|rubriken|topics|posted|veröffentlicht|published|labels|etiquetas|schlagwort|abgelegt|archiviert|updated|aktualisiert|stand|von|by|autor|author|text|redaktion|kontakt|contact", B, kAny, 200, true},
    {"filed under|in", B, kAny, 200},
    {"posted in|on|by|under", B, kAny, 200},
    {"this entry was posted|filed", B, kAny, 300},
    {"veröffentlicht|publiziert|aktualisiert|erstellt|geändert am|um|von|in", B, kAny, 100},
    {"zuletzt aktualisiert|geändert|bearbeitet", B, kAny, 100},
    {"letzte änderung|aktualisierung|bearbeitung", B, kAny, 100},
    {"markiert|getaggt|verschlagwortet mit", B, kAny, 200},
    {"opublikowano|aktualizacja|tagi|autor", B, kAny, 150, true},
    {"valora|comparte|compartir esta|este noticia|artículo|articulo|nota", B, kAny, 100},
    {"last updated|modified|edited|reviewed", B, kAny, 100},
    {"updated|published|posted on|at", B, kAny, 100},
    {"ultima|última modifica|actualización|actualizacion", B, kAny, 100},
    {"lesezeit|lesedauer", B, kAny, 60},
    {"release|publication|publish|erscheinungs date|datum", B, kAny, 100},
    {"reading time", B, kAny, 60},
    {"# min|minute|minuten|minutes read|lesezeit|lesedauer", B, kAny, 40},
    {"wird geladen", B, 2, 40},
    {"loading", B, 2, 40},
};
// clang-format on

// Share bar words; the second element says whether the word makes a bar.
constexpr std::pair<std::string_view, bool> kShareWords[] = {
    {"comment", false},    {"comments", false}, {"copy", false},      {"e", false},
    {"email", false},      {"facebook", false}, {"flipboard", false}, {"k", false},
    {"kommentare", false}, {"like", false},     {"likes", false},     {"link", false},
    {"linkedin", false},   {"m", false},        {"mail", false},      {"merken", false},
    {"messenger", false},  {"on", false},       {"pin", true},        {"pinterest", false},
    {"print", false},      {"drucken", false},  {"reddit", false},    {"save", false},
    {"share", true},       {"shared", true},    {"shares", true},     {"sharing", true},
    {"sms", false},        {"teilen", true},    {"geteilt", true},    {"telegram", false},
    {"this", false},       {"tweet", true},     {"tweets", true},     {"twitter", false},
    {"via", false},        {"whatsapp", false}, {"x", false},         {"xing", false},
};

constexpr auto kShareWordList = [] {
  std::array<std::string_view, std::size(kShareWords)> list{};
  for (size_t i = 0; i < list.size(); ++i) list[i] = kShareWords[i].first;
  return list;
}();

}  // namespace

std::span<const Phrase> BoilerplatePhrases() { return kPhrases; }

std::span<const std::string_view> ShareBarWords() { return kShareWordList; }

bool IsShareBarWord(std::string_view word, bool* verb) {
  for (const auto& [w, is_verb] : kShareWords) {
    if (w == word) {
      *verb = is_verb;
      return true;
    }
  }
  return false;
}

}  // namespace pagesieve::content
