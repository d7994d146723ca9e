#pragma once

// The table of named character references (html_entities_table.cc). Internal.

#include <cstddef>
#include <cstdint>

namespace pagesieve::content {

struct NamedReference {
  const char* name;  // without '&' and ';'
  uint32_t code_point;
  bool legacy;  // also recognised without the trailing ';'
};

// Sorted by name (strcmp order).
extern const NamedReference kNamedReferences[];
extern const size_t kNamedReferenceCount;

}  // namespace pagesieve::content
