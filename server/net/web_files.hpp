#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace elgrande::server {

// A file of the web client as it is sent: its bytes, and for text also gzip'd and
// Brotli'd copies when those are smaller, made once and kept until the file changes.
struct WebFile {
  std::string content_type;
  std::string etag;  // quoted, strong: a hash of the bytes; each encoding adds its own suffix
  std::string plain;
  std::string gzip;    // empty: not worth it (an image, or no smaller)
  std::string brotli;  // likewise
};

enum class ContentCoding : std::uint8_t { identity, gzip, brotli };

// Which coding to send for a request's Accept-Encoding, of those the file has: Brotli,
// then gzip, unless the client refuses them (q=0) or does not name them.
ContentCoding choose_coding(std::string_view accept_encoding, const WebFile& file);
// The ETag of the file as sent in `coding`, and the bytes.
std::string etag_of(const WebFile& file, ContentCoding coding);
const std::string& body_of(const WebFile& file, ContentCoding coding);
std::string_view name(ContentCoding coding);  // "identity", "gzip", "br"
// Whether If-None-Match names `etag` (or is "*"): the client's copy is current.
bool none_match_hits(std::string_view if_none_match, std::string_view etag);

// The web root's files, read and compressed on first request and again whenever a file's
// size or time changes (a deploy or an edit needs no restart). Internally locked;
// compression runs outside the lock. The client is a few hundred kilobytes, so all of it
// is kept.
class WebFiles {
 public:
  explicit WebFiles(std::filesystem::path root) : root_(std::move(root)) {}
  const std::filesystem::path& root() const { return root_; }

  // The file, or nothing if it is not a regular readable file.
  std::shared_ptr<const WebFile> read(const std::filesystem::path& file);

 private:
  struct Cached {
    std::uintmax_t size = 0;
    std::filesystem::file_time_type time;
    std::shared_ptr<const WebFile> file;
  };
  std::filesystem::path root_;
  std::mutex mutex_;
  std::unordered_map<std::string, Cached> files_;
};

}  // namespace elgrande::server
