#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "common/status_or.h"

namespace pagesieve::warc {

// A place where the input went wrong in a way the bytes alone cannot show: a
// gzip member that was cut off or corrupt. The decoded bytes before
// `decoded_pos` came from the damaged member; those from it on come from the
// next good one.
struct Damage {
  int64_t decoded_pos = 0;
  int64_t file_offset = 0;  // of the damaged member
  std::string reason;
};

// The bytes of a WARC file as a record reader sees them: the file itself,
// or the members of a gzip file decoded one after another. It also maps a
// decoded position back to the file, since a dead letter names the offset a
// user can find the record at with `dd` or `warcio`.
//
// Not thread-safe.
class ByteInput {
 public:
  virtual ~ByteInput() = default;

  // Appends up to `max` decoded bytes to `out`; 0 at the end of the input.
  // An error is the operating system's (an unreadable file): fatal.
  virtual StatusOr<size_t> Read(std::string* out, size_t max) = 0;

  // Where the byte at decoded position `pos` starts in the file: its own
  // offset in a plain file, its gzip member's first byte in a gzip file.
  // Valid for positions not yet passed to Forget().
  virtual int64_t FileOffsetOf(int64_t pos) const = 0;

  // The first damage not yet taken, among the bytes read so far. Damage
  // comes in the order of its positions.
  virtual std::optional<Damage> NextDamage() const = 0;
  // The reader has reported NextDamage().
  virtual void TakeDamage() = 0;

  // Positions before `pos` will not be asked about again.
  virtual void Forget(int64_t pos) = 0;
};

// A plain file: decoded positions are file offsets. `file` stays the
// caller's.
std::unique_ptr<ByteInput> PlainInput(std::FILE* file, std::string name);

// A gzip file of one or more members (a .warc.gz has one per record). A
// truncated or corrupt member is reported as Damage and reading goes on at
// the next member found after it. A member that decodes to at most
// `max_whole_member` bytes is decoded in one go (several times faster);
// larger ones are streamed, so memory stays bounded by that.
std::unique_ptr<ByteInput> GzipInput(std::FILE* file, std::string name,
                                     size_t max_whole_member = size_t{65} << 20);

}  // namespace pagesieve::warc
