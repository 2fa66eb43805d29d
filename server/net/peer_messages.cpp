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
  return kind >= static_cast<std::uint8_t>(PeerKind::open) && kind <= static_cast<std::uint8_t>(PeerKind::turns);
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

// A TableCall: table (8 bytes), player (8), patches (1), the name's length (2), the name,
// then the message to the end.
constexpr std::size_t kTableCallBytes = 8 + 8 + 1 + 2;

std::string table_call_body(const TableCall& call) {
  std::string body;
  body.reserve(kTableCallBytes + call.name.size() + call.message.size());
  append_le(body, static_cast<std::uint64_t>(call.table), 8);
  append_le(body, static_cast<std::uint64_t>(call.player), 8);
  body.push_back(call.patches ? 1 : 0);
  const std::string_view name = call.name.substr(0, 0xffff);  // names are far shorter
  append_le(body, name.size(), 2);
  body.append(name);
  body.append(call.message);
  return body;
}

std::optional<TableCall> read_table_call(std::string_view body) {
  if (body.size() < kTableCallBytes) return std::nullopt;
  TableCall call;
  call.table = static_cast<std::int64_t>(read_le(body, 8));
  call.player = static_cast<std::int64_t>(read_le(body.substr(8), 8));
  const auto patches = static_cast<unsigned char>(body[16]);
  if (patches > 1) return std::nullopt;
  call.patches = patches == 1;
  const std::size_t name = read_le(body.substr(17), 2);
  if (name > body.size() - kTableCallBytes) return std::nullopt;
  call.name = body.substr(kTableCallBytes, name);
  call.message = body.substr(kTableCallBytes + name);
  return call;
}

std::string listing_body(const PublishedTable& table) {
  protocol::Json seats = protocol::Json::array();
  for (const auto& seat : table.seats) seats.push_back(seat ? protocol::Json(*seat) : protocol::Json());
  return protocol::Json{{"table", table.id},
                        {"status", name(table.status)},
                        {"description", table.description},
                        {"seats", std::move(seats)},
                        {"host", table.host}}
      .dump();
}

std::string removal_body(TableId id) { return protocol::Json{{"table", id}, {"removed", true}}.dump(); }

std::optional<std::variant<PublishedTable, TableId>> read_listing(std::string_view body) {
  const protocol::Json json = protocol::Json::parse(body, nullptr, false);
  try {
    if (!json.is_object()) return std::nullopt;
    const auto id = json.at("table").get<TableId>();
    if (json.value("removed", false)) return id;
    PublishedTable table{id, TableStatus::open, json.at("description"), {}, json.at("host").get<PlayerId>()};
    const auto status = table_status_from(json.at("status").get<std::string>());
    if (!status) return std::nullopt;
    table.status = *status;
    for (const auto& seat : json.at("seats")) {
      table.seats.push_back(seat.is_null() ? std::nullopt : std::optional(seat.get<PlayerId>()));
    }
    return table;
  } catch (const protocol::Json::exception&) {
    return std::nullopt;
  }
}

constexpr std::size_t kTurnsBytes = 8 + 1 + 8 * games::kMaxSeats;

std::string turns_body(TableId table, const TableListing::Turns& turns) {
  std::string body;
  body.reserve(kTurnsBytes);
  append_le(body, static_cast<std::uint64_t>(table), 8);
  body.push_back(static_cast<char>(turns.waiting));
  for (const std::int64_t deadline : turns.deadlines) append_le(body, static_cast<std::uint64_t>(deadline), 8);
  return body;
}

std::optional<TableTurns> read_turns(std::string_view body) {
  if (body.size() != kTurnsBytes) return std::nullopt;
  TableTurns read{static_cast<TableId>(read_le(body, 8)), {}};
  read.turns.waiting = static_cast<std::uint8_t>(body[8]);
  for (std::size_t seat = 0; seat < read.turns.deadlines.size(); ++seat) {
    read.turns.deadlines[seat] = static_cast<std::int64_t>(read_le(body.substr(9 + 8 * seat), 8));
  }
  return read;
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
