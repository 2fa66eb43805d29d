#include "net/web_files.hpp"

#include <brotli/encode.h>
#include <openssl/sha.h>
#include <zlib.h>

#include <array>
#include <cctype>
#include <fstream>
#include <iterator>
#include <sstream>

#include "net/static_files.hpp"

namespace elgrande::server {
namespace {

bool is_text(std::string_view content_type) {
  return content_type.starts_with("text/") || content_type.starts_with("application/json") ||
         content_type.starts_with("image/svg+xml") || content_type.starts_with("application/manifest+json");
}

std::string gzip(const std::string& data) {
  z_stream stream{};
  // 15 window bits + 16: a gzip wrapper, as Content-Encoding: gzip means.
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&stream, data.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return result == Z_STREAM_END ? out : std::string();
}

std::string brotli(const std::string& data) {
  std::size_t size = BrotliEncoderMaxCompressedSize(data.size());
  if (size == 0) return {};
  std::string out(size, '\0');
  if (!BrotliEncoderCompress(BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, data.size(),
                             reinterpret_cast<const std::uint8_t*>(data.data()), &size,
                             reinterpret_cast<std::uint8_t*>(out.data()))) {
    return {};
  }
  out.resize(size);
  return out;
}

std::string hash_tag(const std::string& data) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest.data());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string tag;
  for (std::size_t i = 0; i < 12; ++i) {  // 96 bits tell versions of one file apart
    tag += kHex[digest[i] >> 4];
    tag += kHex[digest[i] & 15];
  }
  return tag;
}

// The q-value the header gives `coding` (0 when it is not named, or named with q=0).
double quality_of(std::string_view header, std::string_view coding) {
  double star = 0;
  while (!header.empty()) {
    const std::size_t comma = header.find(',');
    std::string_view item = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    const std::size_t semicolon = item.find(';');
    std::string_view token = item.substr(0, semicolon);
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.front()))) token.remove_prefix(1);
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.remove_suffix(1);
    double q = 1;
    if (semicolon != std::string_view::npos) {
      const std::string_view parameter = item.substr(semicolon + 1);
      const std::size_t at = parameter.find("q=");
      if (at != std::string_view::npos) {
        std::istringstream value{std::string(parameter.substr(at + 2))};
        if (!(value >> q)) q = 0;
      }
    }
    const bool same = token.size() == coding.size() &&
                      std::equal(token.begin(), token.end(), coding.begin(), [](char a, char b) {
                        return std::tolower(static_cast<unsigned char>(a)) == b;
                      });
    if (same) return q;
    if (token == "*") star = q;
  }
  return star;
}

}  // namespace

ContentCoding choose_coding(std::string_view accept_encoding, const WebFile& file) {
  if (!file.brotli.empty() && quality_of(accept_encoding, "br") > 0) return ContentCoding::brotli;
  if (!file.gzip.empty() && quality_of(accept_encoding, "gzip") > 0) return ContentCoding::gzip;
  return ContentCoding::identity;
}

std::string_view name(ContentCoding coding) {
  switch (coding) {
    case ContentCoding::gzip: return "gzip";
    case ContentCoding::brotli: return "br";
    case ContentCoding::identity: break;
  }
  return "identity";
}

std::string etag_of(const WebFile& file, ContentCoding coding) {
  if (coding == ContentCoding::identity) return file.etag;
  // Each encoding is another representation, so another validator.
  return file.etag.substr(0, file.etag.size() - 1) + "-" + std::string(name(coding)) + "\"";
}

const std::string& body_of(const WebFile& file, ContentCoding coding) {
  switch (coding) {
    case ContentCoding::gzip: return file.gzip;
    case ContentCoding::brotli: return file.brotli;
    case ContentCoding::identity: break;
  }
  return file.plain;
}

bool none_match_hits(std::string_view if_none_match, std::string_view etag) {
  while (!if_none_match.empty()) {
    const std::size_t comma = if_none_match.find(',');
    std::string_view tag = if_none_match.substr(0, comma);
    if_none_match = comma == std::string_view::npos ? std::string_view() : if_none_match.substr(comma + 1);
    while (!tag.empty() && tag.front() == ' ') tag.remove_prefix(1);
    while (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
    if (tag.starts_with("W/")) tag.remove_prefix(2);  // If-None-Match compares weakly
    if (tag == "*" || tag == etag) return true;
  }
  return false;
}

std::shared_ptr<const WebFile> WebFiles::read(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return nullptr;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return nullptr;
  const auto time = std::filesystem::last_write_time(path, error);
  if (error) return nullptr;
  const std::string key = path.string();
  {
    const std::lock_guard lock(mutex_);
    const auto found = files_.find(key);
    if (found != files_.end() && found->second.size == size && found->second.time == time) return found->second.file;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  auto file = std::make_shared<WebFile>();
  file->plain.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) return nullptr;
  file->content_type = std::string(content_type_for(path));
  file->etag = "\"" + hash_tag(file->plain) + "\"";
  if (is_text(file->content_type)) {
    file->gzip = gzip(file->plain);
    file->brotli = brotli(file->plain);
    if (file->gzip.size() >= file->plain.size()) file->gzip.clear();
    if (file->brotli.size() >= file->plain.size()) file->brotli.clear();
  }
  const std::lock_guard lock(mutex_);
  files_[key] = {size, time, file};
  return file;
}

}  // namespace elgrande::server
