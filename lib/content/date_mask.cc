#include "content/date_mask.h"

#include <array>

namespace pagesieve::content {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// Letters of any script count: non-ASCII bytes are parts of words.
bool IsWordChar(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         static_cast<unsigned char>(c) >= 0x80;
}

constexpr std::string_view kMonths[] = {
    // English
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
    // German
    "januar", "jänner", "februar", "märz", "mai", "juni", "juli", "oktober", "dezember", "mrz",
    "okt", "dez",
    // French
    "janvier", "février", "fevrier", "mars", "avril", "juin", "juillet", "août", "aout",
    "septembre", "octobre", "novembre", "décembre", "decembre",
    // Spanish, Italian, Dutch
    "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
    "octubre", "noviembre", "diciembre", "gennaio", "febbraio", "aprile", "maggio", "giugno",
    "luglio", "settembre", "ottobre", "dicembre", "januari", "februari", "maart", "mei",
    "augustus"};

constexpr std::string_view kUnits[] = {
    "second", "seconds", "sec", "secs", "minute", "minutes", "min",   "mins",   "hour", "hours",
    "hr",     "hrs",     "day", "days", "week",   "weeks",   "month", "months", "year", "years"};
constexpr std::string_view kGermanUnits[] = {"sekunde", "sekunden", "minute", "minuten", "stunde",
                                             "stunden", "tag",      "tagen",  "woche",   "wochen",
                                             "monat",   "monaten",  "jahr",   "jahren"};

bool InList(std::string_view word, const std::string_view* list, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (list[i] == word) return true;
  }
  return false;
}
template <size_t N>
bool InList(std::string_view word, const std::string_view (&list)[N]) {
  return InList(word, list, N);
}

// A cursor over the text with the small matchers the patterns are made of.
struct Cursor {
  std::string_view s;
  size_t pos;

  bool AtEnd() const { return pos >= s.size(); }
  char Peek(size_t ahead = 0) const { return pos + ahead < s.size() ? s[pos + ahead] : '\0'; }
  // Reads 1..max digits; returns the count (0: none, cursor unchanged).
  int Digits(int max, int* value) {
    int n = 0;
    int v = 0;
    while (n < max + 1 && IsDigit(Peek())) {
      v = v * 10 + (Peek() - '0');
      ++pos;
      ++n;
    }
    if (n > max) return -1;  // longer run: not this pattern
    *value = v;
    return n;
  }
  bool Char(char c) {
    if (Peek() != c) return false;
    ++pos;
    return true;
  }
  bool Space() { return Char(' '); }
  // A whole word (letters up to a non-word byte).
  std::string_view Word() {
    const size_t start = pos;
    while (!AtEnd() && IsWordChar(Peek()) && !IsDigit(Peek())) ++pos;
    return s.substr(start, pos - start);
  }
  bool EndsWord() const { return AtEnd() || !IsWordChar(Peek()); }
};

// "t10:30:00.250+02:00" after an ISO date (the text is case-folded).
void SkipIsoTime(Cursor* c) {
  Cursor t = *c;
  int v;
  t.Char('t');
  if (t.Digits(2, &v) != 2 || !t.Char(':') || t.Digits(2, &v) != 2) return;
  if (t.Char(':') && t.Digits(2, &v) != 2) return;
  if (t.Char('.')) {
    while (IsDigit(t.Peek())) ++t.pos;
  }
  if (!t.Char('z') && (t.Peek() == '+' || t.Peek() == '-')) {
    Cursor zone = t;
    zone.Char(zone.Peek());
    if (zone.Digits(2, &v) == 2) {
      zone.Char(':');
      if (zone.Digits(2, &v) == 2) t = zone;
    }
  }
  *c = t;
}

// 2012-05-31, 31.05.2012, 5/31/12 (and the same with one space after a dot).
bool NumericDate(Cursor* c) {
  Cursor t = *c;
  int a, b, y;
  const int na = t.Digits(4, &a);
  if (na <= 0 || na == 3) return false;
  const char sep = t.Peek();
  if (sep != '-' && sep != '/' && sep != '.') return false;
  t.Char(sep);
  if (sep == '.') t.Space();
  if (t.Digits(2, &b) <= 0) return false;
  if (!t.Char(sep)) return false;
  if (sep == '.') t.Space();
  const int ny = t.Digits(4, &y);
  if (ny <= 0 || ny == 3 || (na == 4 && ny > 2) || (na != 4 && ny == 1)) return false;
  if (na == 4 ? (b < 1 || b > 12 || y < 1 || y > 31) : (a < 1 || a > 31 || b < 1 || b > 31)) {
    return false;
  }
  if (na == 4 && t.Peek() == 't' && IsDigit(t.Peek(1))) SkipIsoTime(&t);
  if (!t.EndsWord()) return false;
  *c = t;
  return true;
}

// 10:30, 10:30:15, optionally followed by am/pm/uhr/h; 14.30 uhr; 10 am.
bool ClockTime(Cursor* c) {
  Cursor t = *c;
  int h, m;
  if (t.Digits(2, &h) <= 0 || h > 24) return false;
  const char sep = t.Peek();
  bool minutes = false;
  if ((sep == ':' || sep == '.') && IsDigit(t.Peek(1))) {
    t.Char(sep);
    if (t.Digits(2, &m) != 2 || m > 59) return false;
    if (t.Char(':') && (t.Digits(2, &m) != 2 || m > 60)) return false;
    minutes = true;
  }
  Cursor suffix = t;
  suffix.Space();
  const std::string_view word = suffix.Word();
  const bool meridiem = word == "am" || word == "pm" || word == "uhr";
  const bool dotted =
      (word == "a" || word == "p") && suffix.Char('.') && suffix.Char('m') && suffix.Char('.');
  if (meridiem || dotted) {
    if (sep == '.' && minutes && word != "uhr") return false;  // 14.30 alone is a number
    t = suffix;
  } else if (!minutes || sep != ':') {
    return false;
  }
  if (!t.EndsWord() && t.s[t.pos - 1] != '.') return false;
  *c = t;
  return true;
}

// "31 may 2012", "31. mai", "31 may": day, month name, optional year.
bool DayMonthYear(Cursor* c) {
  Cursor t = *c;
  int d, y;
  if (t.Digits(2, &d) <= 0 || d < 1 || d > 31) return false;
  t.Char('.');
  if (!t.Space()) return false;
  if (!InList(t.Word(), kMonths)) return false;
  t.Char('.');
  Cursor year = t;
  if (year.Space() && year.Digits(4, &y) == 4 && year.EndsWord()) t = year;
  if (!t.EndsWord()) return false;
  *c = t;
  return true;
}

// "5 minutes ago"; the German "vor 5 minuten" is seen from its number.
bool RelativeTime(Cursor* c, std::string_view before) {
  Cursor t = *c;
  int n;
  if (t.Digits(4, &n) <= 0 || !t.Space()) return false;
  const std::string_view unit = t.Word();
  if (InList(unit, kGermanUnits) && before.ends_with("vor ")) {
    *c = t;
    return true;
  }
  if (!InList(unit, kUnits) || !t.Space() || t.Word() != "ago") return false;
  *c = t;
  return true;
}

// Number with inner separators: 1,234.56
void SkipNumber(Cursor* c) {
  while (IsDigit(c->Peek()) || ((c->Peek() == ',' || c->Peek() == '.') && IsDigit(c->Peek(1)))) {
    ++c->pos;
  }
}

// "may " or "may 31, " just written: a month name ending the output before
// a number, which the year or day that follows completes into a date.
size_t MonthBefore(const std::string& out) {
  size_t end = out.size();
  if (end == 0 || out[end - 1] != ' ') return std::string::npos;
  --end;
  if (end > 0 && out[end - 1] == '.') --end;
  size_t start = end;
  while (start > 0 && IsWordChar(out[start - 1]) && !IsDigit(out[start - 1])) --start;
  if (start == end || !InList(std::string_view(out).substr(start, end - start), kMonths)) {
    return std::string::npos;
  }
  return start;
}

// "may 31, 2012", "may 2012", "may 31": month name already written.
bool MonthFirst(Cursor* c, std::string* out) {
  const size_t month_at = MonthBefore(*out);
  if (month_at == std::string::npos) return false;
  Cursor t = *c;
  int v;
  const int n = t.Digits(4, &v);
  if (n == 4) {
    if (!t.EndsWord()) return false;
  } else if (n > 0 && n <= 2 && v >= 1 && v <= 31) {
    Cursor year = t;
    year.Char(',');
    if (year.Space() && year.Digits(4, &v) == 4 && year.EndsWord()) t = year;
    if (!t.EndsWord()) return false;
  } else {
    return false;
  }
  out->resize(month_at);
  *c = t;
  return true;
}

}  // namespace

void AppendMaskedDates(std::string_view text, bool mask_numbers, std::string* out) {
  Cursor c{text, 0};
  while (!c.AtEnd()) {
    // Copy up to the next digit that starts a word.
    size_t next = c.pos;
    while (next < text.size() &&
           !(IsDigit(text[next]) && (next == 0 || !IsWordChar(text[next - 1])))) {
      ++next;
    }
    out->append(text.substr(c.pos, next - c.pos));
    c.pos = next;
    if (c.AtEnd()) break;
    const std::string_view before = text.substr(0, c.pos);
    if (MonthFirst(&c, out) || NumericDate(&c) || DayMonthYear(&c)) {
      out->append(kDatePlaceholder);
    } else if (ClockTime(&c) || RelativeTime(&c, before)) {
      out->append(kTimePlaceholder);
    } else {
      const size_t start = c.pos;
      SkipNumber(&c);
      if (mask_numbers) {
        out->append(kNumberPlaceholder);
      } else {
        out->append(text.substr(start, c.pos - start));
      }
    }
  }
}

}  // namespace pagesieve::content
