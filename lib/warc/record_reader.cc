#include "warc/record_reader.h"

#include <charconv>

#include "warc/header_fields.h"

namespace pagesieve::warc {
namespace {

constexpr size_t kReadChunk = 256 << 10;
constexpr std::string_view kVersionPrefix = "WARC/";

std::string Quote(std::string_view bytes) {
  return std::string(bytes.substr(0, 60)) + (bytes.size() > 60 ? "..." : "");
}

StatusOr<int64_t> ContentLength(const HeaderFields& fields) {
  const std::optional<std::string_view> text = fields.Get("Content-Length");
  if (!text) return Status::InvalidArgument("no Content-Length");
  int64_t length = -1;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), length);
  if (ec != std::errc() || end != text->data() + text->size() || length < 0) {
    return Status::InvalidArgument("Content-Length '" + Quote(*text) + "' is not a length");
  }
  return length;
}

}  // namespace

StatusOr<bool> RecordReader::Fill(size_t n) {
  while (Available() < n && !eof_) {
    PS_ASSIGN_OR_RETURN(size_t got, input_->Read(&buf_, std::max(kReadChunk, n - Available())));
    if (got == 0) eof_ = true;
  }
  return Available() >= n;
}

void RecordReader::Compact() {
  // Keeps the buffer to about one record: what was read is let go of once
  // it is more than what is still to read.
  if (pos_ < (size_t{1} << 20) || pos_ < Available()) return;
  buf_.erase(0, pos_);
  base_ += static_cast<int64_t>(pos_);
  pos_ = 0;
  input_->Forget(base_);
}

StatusOr<bool> RecordReader::SkipBlankLines() {
  for (;;) {
    PS_ASSIGN_OR_RETURN(bool any, Fill(1));
    if (!any) return false;
    if (buf_[pos_] != '\r' && buf_[pos_] != '\n') return true;
    ++pos_;
  }
}

StatusOr<std::optional<size_t>> RecordReader::FindHeaderEnd() {
  size_t searched = pos_;
  for (;;) {
    const std::string_view text(buf_.data() + searched, buf_.size() - searched);
    for (size_t nl = text.find('\n'); nl != std::string_view::npos; nl = text.find('\n', nl + 1)) {
      const size_t at = searched + nl + 1;
      if (at < buf_.size() && buf_[at] == '\n') return std::optional<size_t>(at + 1);
      if (at + 1 < buf_.size() && buf_[at] == '\r' && buf_[at + 1] == '\n') return std::optional<size_t>(at + 2);
    }
    if (Available() > options_.max_header_bytes) return std::optional<size_t>(0);
    // The last two bytes may start the empty line: look at them again.
    searched = std::max(pos_, buf_.size() - std::min<size_t>(buf_.size(), 2));
    PS_ASSIGN_OR_RETURN(bool more, Fill(Available() + 1));
    if (!more) return std::optional<size_t>();
  }
}

StatusOr<std::optional<WarcRecord>> RecordReader::Next() {
  Compact();
  PS_ASSIGN_OR_RETURN(bool any, SkipBlankLines());
  // A damaged member that held no record's start (its record is lost whole)
  // is reported on its own.
  if (std::optional<WarcRecord> lost = DamageBefore(Position(pos_))) return lost;
  if (!any) return std::optional<WarcRecord>();
  const size_t start = pos_;
  WarcRecord record;
  record.offset = input_->FileOffsetOf(Position(start));
  PS_ASSIGN_OR_RETURN(std::optional<size_t> header_end, FindHeaderEnd());
  if (!header_end) {
    record.bytes = buf_.substr(start, 4096);
    record.problem = "truncated: the input ends inside the WARC header";
    if (!Damaged(start, buf_.size() + 1, &record)) pos_ = buf_.size();
    return std::optional<WarcRecord>(std::move(record));
  }
  const std::string_view head(buf_.data() + start,
                              *header_end ? *header_end - start : std::min<size_t>(Available(), 200));
  if (!head.starts_with(kVersionPrefix)) {
    record.bytes = head.substr(0, 200);
    record.problem = "not a WARC record: it starts with '" + Quote(head.substr(0, head.find('\n'))) + "'";
    if (!Damaged(start, start + head.size(), &record)) PS_RETURN_IF_ERROR(Resync(start + 1));
    return std::optional<WarcRecord>(std::move(record));
  }
  if (*header_end == 0) {
    record.bytes = head;
    record.problem = "the WARC header is longer than " + std::to_string(options_.max_header_bytes) +
                     " bytes";
    PS_RETURN_IF_ERROR(Resync(start + 1));
    return std::optional<WarcRecord>(std::move(record));
  }
  record.block_start = head.size();
  std::optional<HeaderSplit> split = SplitHeader(head);
  StatusOr<HeaderFields> fields = HeaderFields::Parse(split ? split->fields : head);
  StatusOr<int64_t> length = fields.ok() ? ContentLength(*fields) : fields.status();
  if (!length.ok()) {
    record.bytes = head;
    record.problem = "bad WARC header: " + length.status().message();
    if (!Damaged(start, *header_end, &record)) PS_RETURN_IF_ERROR(Resync(*header_end));
    return std::optional<WarcRecord>(std::move(record));
  }
  record.type = std::string(fields->Get("WARC-Type").value_or(""));
  record.content_type = std::string(fields->Get("Content-Type").value_or(""));
  if (*length > options_.max_record_bytes) {
    PS_RETURN_IF_ERROR(SkipBlock(start, *length, &record));
    return std::optional<WarcRecord>(std::move(record));
  }
  PS_RETURN_IF_ERROR(ReadBlock(start, *header_end, *length, &record));
  return std::optional<WarcRecord>(std::move(record));
}

Status RecordReader::ReadBlock(size_t start, size_t block_start, int64_t length,
                                       WarcRecord* record) {
  const size_t block_end = block_start + static_cast<size_t>(length);
  PS_ASSIGN_OR_RETURN(bool whole, Fill(block_end - pos_));
  if (!whole) {
    record->bytes = buf_.substr(start, block_start - start);
    record->problem = "truncated: Content-Length says " + std::to_string(length) +
                      " bytes, the input ends after " + std::to_string(buf_.size() - block_start);
    if (!Damaged(start, buf_.size() + 1, record)) pos_ = buf_.size();
    return Status::Ok();
  }
  size_t next = block_end;
  PS_ASSIGN_OR_RETURN(bool ends, EndsRecord(block_end, &next));
  if (Damaged(start, next, record)) {
    record->bytes = buf_.substr(start, block_start - start);
    return Status::Ok();
  }
  if (!ends) {
    record->bytes = buf_.substr(start, block_start - start);
    record->problem = "the record does not end where its Content-Length (" +
                      std::to_string(length) + ") says: the length is wrong";
    return Resync(block_start);
  }
  record->bytes = buf_.substr(start, block_end - start);
  pos_ = next;
  return Status::Ok();
}

StatusOr<bool> RecordReader::EndsRecord(size_t at, size_t* next) {
  // Writers end a record with CRLF CRLF; LF LF and an extra line are seen too.
  size_t i = at;
  for (; i < at + 6; ++i) {
    PS_ASSIGN_OR_RETURN(bool any, Fill(i + 1 - pos_));
    if (!any || (buf_[i] != '\r' && buf_[i] != '\n')) break;
  }
  *next = i;
  if (i == at) return false;
  PS_ASSIGN_OR_RETURN(bool more, Fill(i + kVersionPrefix.size() - pos_));
  if (!more) return Available() == i - pos_;  // nothing but the end follows
  return buf_.compare(i, kVersionPrefix.size(), kVersionPrefix) == 0;
}

Status RecordReader::SkipBlock(size_t start, int64_t length, WarcRecord* record) {
  const size_t header_end = record->block_start + start;
  record->bytes = buf_.substr(start, header_end - start);
  record->problem = "the record's block of " + std::to_string(length) +
                    " bytes is over warc.max_record_bytes (" +
                    std::to_string(options_.max_record_bytes) + "): skipped";
  const int64_t start_pos = Position(start);
  pos_ = header_end;
  int64_t left = length;
  while (left > 0) {
    PS_ASSIGN_OR_RETURN(bool any, Fill(1));
    if (!any) break;
    const size_t take = static_cast<size_t>(std::min<int64_t>(left, static_cast<int64_t>(Available())));
    if (std::optional<Damage> d = input_->NextDamage();
        d && d->decoded_pos > start_pos && d->decoded_pos < Position(pos_ + take)) {
      input_->TakeDamage();
      record->problem = d->reason;
      pos_ = static_cast<size_t>(d->decoded_pos - base_);
      return Status::Ok();
    }
    pos_ += take;
    left -= static_cast<int64_t>(take);
    buf_.erase(0, pos_);  // nothing of the block is kept
    base_ += static_cast<int64_t>(pos_);
    pos_ = 0;
    input_->Forget(base_);
  }
  if (left > 0) {
    record->problem = "truncated: Content-Length says " + std::to_string(length) +
                      " bytes, the input ends after " + std::to_string(length - left);
    return Status::Ok();
  }
  size_t next = pos_;
  PS_ASSIGN_OR_RETURN(bool ends, EndsRecord(pos_, &next));
  if (ends) {
    pos_ = next;
    return Status::Ok();
  }
  return Resync(pos_);
}

bool RecordReader::Damaged(size_t start, size_t end, WarcRecord* record) {
  std::optional<Damage> d = input_->NextDamage();
  if (!d || d->decoded_pos <= Position(start) || d->decoded_pos >= Position(end)) return false;
  input_->TakeDamage();
  record->problem = d->reason;
  pos_ = static_cast<size_t>(d->decoded_pos - base_);
  return true;
}

std::optional<WarcRecord> RecordReader::DamageBefore(int64_t pos) {
  std::optional<Damage> d = input_->NextDamage();
  if (!d || d->decoded_pos > pos) return std::nullopt;
  input_->TakeDamage();
  WarcRecord lost;
  lost.offset = d->file_offset;
  lost.problem = d->reason;
  return lost;
}

Status RecordReader::Resync(size_t from) {
  pos_ = from;
  for (;;) {
    const std::string_view text(buf_.data() + pos_, Available());
    for (size_t w = text.find(kVersionPrefix); w != std::string_view::npos;
         w = text.find(kVersionPrefix, w + 1)) {
      const size_t at = pos_ + w;
      if (at == 0 || buf_[at - 1] == '\n') {
        pos_ = at;
        return Status::Ok();
      }
    }
    // Keep a few bytes: "\nWARC/" may straddle the next read.
    pos_ = buf_.size() - std::min(Available(), kVersionPrefix.size());
    Compact();
    PS_ASSIGN_OR_RETURN(bool more, Fill(Available() + 1));
    if (!more) {
      pos_ = buf_.size();
      return Status::Ok();
    }
  }
}

}  // namespace pagesieve::warc
