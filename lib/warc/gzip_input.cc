#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <deque>

#include "warc/byte_input.h"
#include "warc/whole_member.h"

namespace pagesieve::warc {
namespace {

constexpr size_t kChunk = 256 << 10;
constexpr size_t kKeepMember = 16 << 20;
constexpr char kMagic[] = "\x1f\x8b\x08";  // gzip, deflate method
// Compressed bytes buffered before a member is decoded whole: most members
// are far smaller, so few are cut off by the buffer's end and decoded twice.
constexpr size_t kWholeAhead = 256 << 10;
// A member longer than this compressed is streamed: it would be decoded
// again for every doubling of the buffer.
constexpr size_t kMaxWholeAhead = 8 << 20;

// Inflates member after member, remembering where each began in the file
// and where a member was cut off or corrupt, so the record reader can name
// offsets and give up on exactly the damaged records.
class GzipMemberInput final : public ByteInput {
 public:
  GzipMemberInput(std::FILE* file, std::string name, size_t max_whole_member)
      : file_(file), name_(std::move(name)), whole_(max_whole_member) {
    std::memset(&z_, 0, sizeof(z_));
    // 16 + MAX_WBITS: a gzip header and trailer around each member.
    inflate_ok_ = inflateInit2(&z_, 16 + MAX_WBITS) == Z_OK;
  }
  ~GzipMemberInput() override { inflateEnd(&z_); }

  StatusOr<size_t> Read(std::string* out, size_t max) override {
    if (!inflate_ok_) return Status::Internal("zlib could not be initialised");
    for (;;) {
      if (state_ == State::kEnd) return 0;
      if (state_ == State::kWhole) {
        // An empty member gives nothing, which is not the end of the input.
        const size_t n = Serve(out, max);
        if (n > 0 || max == 0) return n;
        continue;
      }
      if (state_ != State::kInMember) {
        size_t none = 0;  // starting or looking for a member writes nothing
        PS_RETURN_IF_ERROR(Step(nullptr, 0, &none));
        continue;
      }
      const size_t old = out->size();
      out->resize(old + max);
      size_t produced = 0;
      const Status status = Step(out->data() + old, max, &produced);
      out->resize(old + produced);
      PS_RETURN_IF_ERROR(status);
      if (produced > 0) return produced;
    }
  }

  int64_t FileOffsetOf(int64_t pos) const override {
    int64_t offset = 0;
    for (const auto& [start, file_offset] : members_) {
      if (start > pos) break;
      offset = file_offset;
    }
    return offset;
  }

  std::optional<Damage> NextDamage() const override {
    if (damages_.empty()) return std::nullopt;
    return damages_.front();
  }
  void TakeDamage() override {
    if (!damages_.empty()) damages_.pop_front();
  }

  void Forget(int64_t pos) override {
    while (members_.size() > 1 && members_[1].first <= pos) members_.pop_front();
  }

 private:
  // kWhole: a member decoded whole is being handed out; kInMember: one is
  // being inflated by zlib as it streams.
  enum class State { kBetween, kWhole, kInMember, kSeeking, kEnd };

  // One step: starts a member, inflates some, or finds the next member.
  Status Step(char* dst, size_t max, size_t* produced) {
    PS_ASSIGN_OR_RETURN(bool have, Ensure(state_ == State::kInMember ? 1 : 3));
    if (!have && state_ == State::kInMember) {
      // zlib may still hold output for input it has taken already.
      const size_t before = *produced;
      PS_RETURN_IF_ERROR(Inflate(dst, max, produced));
      if (*produced > before || state_ != State::kInMember) return Status::Ok();
      AddDamage("the gzip member at offset " + std::to_string(member_offset_) +
                " is truncated: the file ends inside it");
    }
    if (!have) {
      state_ = State::kEnd;
      return Status::Ok();
    }
    if (state_ == State::kBetween) return StartMember();
    if (state_ == State::kSeeking) return Seek();
    return Inflate(dst, max, produced);
  }

  Status StartMember() {
    if (std::memcmp(in_.data() + in_pos_, kMagic, 3) != 0) {
      // Many writers pad the end of a file with zeros; anything else is worth saying.
      if (!OnlyZerosLeft()) {
        AddDamage("the bytes at offset " + std::to_string(FileOffset()) + " are not a gzip member");
      }
      state_ = State::kSeeking;
      return Status::Ok();
    }
    member_offset_ = FileOffset();
    members_.emplace_back(decoded_, member_offset_);
    PS_ASSIGN_OR_RETURN(bool whole, DecodeWhole());
    if (whole) {
      state_ = State::kWhole;
      return Status::Ok();
    }
    // Too large, cut off or corrupt: zlib streams it from its first byte,
    // and says what is wrong with it exactly as if it had been tried first.
    inflateReset(&z_);
    state_ = State::kInMember;
    return Status::Ok();
  }

  // Decodes the member starting at in_pos_ in one go, if it is whole and
  // small enough; true when it was.
  StatusOr<bool> DecodeWhole() {
    size_t ahead = kWholeAhead;
    for (;;) {
      PS_RETURN_IF_ERROR(Buffer(ahead).status());
      size_t consumed = 0;
      const std::string_view in(in_.data() + in_pos_, in_.size() - in_pos_);
      const WholeMemberDecoder::Result r = whole_.Decode(in, &consumed);
      if (r == WholeMemberDecoder::Result::kDecoded) {
        in_pos_ += consumed;
        served_ = 0;
        return true;
      }
      // Only more bytes can help a member that did not decode, and only if
      // the buffer ended before it could.
      if (r == WholeMemberDecoder::Result::kTooLarge || in.size() < ahead ||
          ahead >= kMaxWholeAhead) {
        return false;
      }
      ahead *= 2;
    }
  }

  // Hands out the member decoded whole, up to `max` bytes a call.
  size_t Serve(std::string* out, size_t max) {
    const std::string_view rest = whole_.output().substr(served_);
    const size_t n = std::min(max, rest.size());
    out->append(rest.data(), n);
    served_ += n;
    decoded_ += static_cast<int64_t>(n);
    if (served_ == whole_.output().size()) state_ = State::kBetween;
    return n;
  }

  Status Seek() {
    const std::string_view rest(in_.data() + in_pos_ + 1, in_.size() - in_pos_ - 1);
    const size_t found = rest.find(kMagic, 0, 3);
    if (found == std::string_view::npos) {
      // Keep the last two bytes: a magic may straddle the next read.
      in_pos_ = in_.size() - std::min<size_t>(2, in_.size() - in_pos_);
      PS_ASSIGN_OR_RETURN(bool more, Refill());
      if (!more) state_ = State::kEnd;
      return Status::Ok();
    }
    in_pos_ += 1 + found;
    state_ = State::kBetween;
    return Status::Ok();
  }

  Status Inflate(char* dst, size_t max, size_t* produced) {
    z_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
    z_.avail_in = static_cast<uInt>(in_.size() - in_pos_);
    z_.next_out = reinterpret_cast<Bytef*>(dst + *produced);
    z_.avail_out = static_cast<uInt>(max - *produced);
    const int ret = inflate(&z_, Z_NO_FLUSH);
    const size_t used = in_.size() - in_pos_ - z_.avail_in;
    const size_t made = max - *produced - z_.avail_out;
    in_pos_ += used;
    *produced += made;
    decoded_ += static_cast<int64_t>(made);
    if (ret == Z_STREAM_END) {
      state_ = State::kBetween;
    } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
      AddDamage("the gzip member at offset " + std::to_string(member_offset_) + " is corrupt (" +
                (z_.msg ? z_.msg : "zlib error " + std::to_string(ret)) + ")");
      SeekFromMemberStart();
    }
    return Status::Ok();
  }

  // A cut-off member runs into the next one, whose header zlib then reads
  // as data: the next member is looked for from just after the damaged
  // one's start, not from where zlib gave up.
  void SeekFromMemberStart() {
    const int64_t index = member_offset_ - in_offset_;
    if (index >= 0 && index < static_cast<int64_t>(in_pos_)) in_pos_ = static_cast<size_t>(index);
    state_ = State::kSeeking;
  }

  void AddDamage(std::string reason) {
    damages_.push_back({decoded_, member_offset_, std::move(reason)});
  }

  int64_t FileOffset() const { return in_offset_ + static_cast<int64_t>(in_pos_); }

  bool OnlyZerosLeft() {
    for (size_t i = in_pos_; i < in_.size(); ++i) {
      if (in_[i] != '\0') return false;
    }
    return std::feof(file_);
  }

  // At least `n` unread compressed bytes, unless the file ends first.
  StatusOr<bool> Ensure(size_t n) {
    while (in_.size() - in_pos_ < n) {
      PS_ASSIGN_OR_RETURN(bool more, Refill());
      if (!more) return in_.size() > in_pos_ && n == 1;
    }
    return true;
  }

  // At least `n` unread compressed bytes buffered, unless the file ends
  // first; false if it did.
  StatusOr<bool> Buffer(size_t n) {
    while (in_.size() - in_pos_ < n) {
      PS_ASSIGN_OR_RETURN(bool more, Refill());
      if (!more) return false;
    }
    return true;
  }

  // Drops the bytes read and reads more; false at the end of the file.
  StatusOr<bool> Refill() {
    // Keeps the current member's bytes (up to kKeepMember) for SeekFromMemberStart.
    size_t drop = in_pos_;
    const int64_t member = member_offset_ - in_offset_;
    if (state_ == State::kInMember && member >= 0 && member <= static_cast<int64_t>(in_pos_) &&
        in_pos_ - static_cast<size_t>(member) < kKeepMember) {
      drop = static_cast<size_t>(member);
    }
    in_.erase(0, drop);
    in_offset_ += static_cast<int64_t>(drop);
    in_pos_ -= drop;
    const size_t old = in_.size();
    in_.resize(old + kChunk);
    const size_t n = std::fread(in_.data() + old, 1, kChunk, file_);
    in_.resize(old + n);
    if (n == 0 && std::ferror(file_)) {
      return Status::IoError("cannot read input '" + name_ + "': " + std::strerror(errno));
    }
    return n > 0;
  }

  std::FILE* const file_;
  const std::string name_;
  z_stream z_;
  bool inflate_ok_ = false;
  State state_ = State::kBetween;
  WholeMemberDecoder whole_;
  size_t served_ = 0;  // of whole_.output(), in kWhole
  std::string in_;     // compressed bytes; in_[0] is at file offset in_offset_
  size_t in_pos_ = 0;  // the next unread one
  int64_t in_offset_ = 0;
  int64_t decoded_ = 0;  // decoded bytes produced so far
  int64_t member_offset_ = 0;
  std::deque<std::pair<int64_t, int64_t>> members_;  // (decoded start, file offset)
  std::deque<Damage> damages_;
};

}  // namespace

std::unique_ptr<ByteInput> GzipInput(std::FILE* file, std::string name, size_t max_whole_member) {
  return std::make_unique<GzipMemberInput>(file, std::move(name), max_whole_member);
}

}  // namespace pagesieve::warc
