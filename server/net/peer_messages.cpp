#include "net/peer_messages.hpp"

namespace elgrande::server {
namespace {

constexpr std::size_t kHeaderBytes = 1 + 8 + 4;

void append_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

std::uint64_t read_le(std::string_view in, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= std::uint64_t{static_cast<unsigned char>(in[static_cast<std::size_t>(i)])} << (8 * i);
  return value;
}

bool known(std::uint8_t kind) {
  return kind >= static_cast<std::uint8_t>(PeerKind::open) && kind <= static_cast<std::uint8_t>(PeerKind::http_answer);
}

}  // namespace

void append_peer_message(std::string& frame, PeerKind kind, std::uint64_t connection, std::string_view body) {
  frame.reserve(frame.size() + kHeaderBytes + body.size());
  frame.push_back(static_cast<char>(kind));
  append_le(frame, connection, 8);
  append_le(frame, body.size(), 4);
  frame.append(body);
}

std::string end_body(std::uint16_t code, std::string_view reason) {
  std::string body;
  append_le(body, code, 2);
  body.append(reason);
  return body;
}

std::optional<EndReason> read_end_body(std::string_view body) {
  if (body.size() < 2) return std::nullopt;
  return EndReason{static_cast<std::uint16_t>(read_le(body, 2)), body.substr(2)};
}

std::optional<std::vector<PeerMessage>> read_peer_frame(std::string_view frame) {
  std::vector<PeerMessage> messages;
  while (!frame.empty()) {
    if (frame.size() < kHeaderBytes) return std::nullopt;
    const auto kind = static_cast<std::uint8_t>(frame[0]);
    if (!known(kind)) return std::nullopt;
    const std::uint64_t connection = read_le(frame.substr(1), 8);
    const std::uint64_t length = read_le(frame.substr(9), 4);
    if (length > frame.size() - kHeaderBytes) return std::nullopt;
    messages.push_back({static_cast<PeerKind>(kind), connection, frame.substr(kHeaderBytes, length)});
    frame.remove_prefix(kHeaderBytes + length);
  }
  return messages;
}

}  // namespace elgrande::server
