#include "url/registered_domain.h"

#include <libpsl.h>

#include "url/ip_address.h"
#include "url/percent_encoding.h"

namespace pagesieve::url {

std::string RegisteredDomain(std::string_view ascii_host) {
  if (!ascii_host.empty() && ascii_host.back() == '.') ascii_host.remove_suffix(1);
  std::string host(ascii_host);
  for (char& c : host) c = internal::AsciiLower(c);
  // libpsl would read "1.2.3.4" as a domain and answer "3.4".
  if (host.empty() || internal::IsIpAddress(host)) return host;
  // The built-in list is compiled into libpsl: immutable, so thread-safe.
  const psl_ctx_t* psl = psl_builtin();
  if (psl == nullptr) return host;
  const char* domain = psl_registrable_domain(psl, host.c_str());
  if (domain == nullptr) return host;
  return std::string(domain);
}

}  // namespace pagesieve::url
