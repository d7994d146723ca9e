#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/status_or.h"
#include "warc/byte_input.h"

namespace pagesieve::warc {

struct RecordReaderOptions {
  // A record whose block is longer is not read into memory: it is skipped
  // by streaming over it and reported (warc.max_record_bytes).
  int64_t max_record_bytes = int64_t{64} << 20;
  // A header longer than this is not a WARC header.
  size_t max_header_bytes = size_t{1} << 20;
};

// One WARC record as stored, or what could be seen of a broken one.
struct WarcRecord {
  // Where a user finds the record: the offset of its first byte, or in a
  // gzip file of the member it starts in.
  int64_t offset = 0;
  // The header and block as stored. For a broken record, what is worth
  // quoting: its header, or the bytes that were not one.
  std::string bytes;
  size_t block_start = 0;  // where the block starts in `bytes`
  std::string type;        // WARC-Type
  std::string content_type;  // the block's Content-Type
  // Why the record cannot be used; empty when it can.
  std::string problem;

  bool ok() const { return problem.empty(); }
};

// Reads WARC records one after another (ISO 28500: a "WARC/" version line,
// named fields, an empty line, a block of Content-Length bytes, CRLF CRLF).
// A broken record is returned with its problem, and reading goes on at the
// next record that can be found: after a lying Content-Length, at the next
// line starting with "WARC/"; after a damaged gzip member, at the next
// member. Memory stays bounded by max_record_bytes whatever the input.
//
// Not thread-safe.
class RecordReader {
 public:
  RecordReader(std::unique_ptr<ByteInput> input, RecordReaderOptions options)
      : input_(std::move(input)), options_(options) {}

  // The next record; nullopt at the end of the input. An error is the
  // operating system's (an unreadable file), not the input's.
  StatusOr<std::optional<WarcRecord>> Next();

 private:
  // Reads until `n` bytes are buffered after pos_; false when the input ends first.
  StatusOr<bool> Fill(size_t n);
  size_t Available() const { return buf_.size() - pos_; }
  int64_t Position(size_t index) const { return base_ + static_cast<int64_t>(index); }
  // Skips CR and LF between records; false at the end of the input.
  StatusOr<bool> SkipBlankLines();
  // The end of the header starting at pos_ (after its empty line), 0 if none
  // fits in max_header_bytes, or nullopt at the end of the input.
  StatusOr<std::optional<size_t>> FindHeaderEnd();
  // Reads the block and the CRLF CRLF after it, or says what is wrong.
  Status ReadBlock(size_t start, size_t block_start, int64_t length, WarcRecord* record);
  // Streams over an oversized block without keeping it.
  Status SkipBlock(size_t start, int64_t length, WarcRecord* record);
  // Whether the bytes at `at` end a record: CR/LF, then the end or "WARC/".
  StatusOr<bool> EndsRecord(size_t at, size_t* next);
  // A damaged gzip member inside [start, end): the record is lost, reading
  // goes on where the damage ends.
  bool Damaged(size_t start, size_t end, WarcRecord* record);
  // Damage at or before `pos` that no record was blamed for.
  std::optional<WarcRecord> DamageBefore(int64_t pos);
  // Moves to the next line starting with "WARC/" at or after `from`.
  Status Resync(size_t from);
  void Compact();

  std::unique_ptr<ByteInput> input_;
  const RecordReaderOptions options_;
  std::string buf_;   // decoded bytes; buf_[0] is at decoded position base_
  size_t pos_ = 0;    // the next unread byte in buf_
  int64_t base_ = 0;
  bool eof_ = false;
};

}  // namespace pagesieve::warc
