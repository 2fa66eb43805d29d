#include "elgrande/db/snapshot.hpp"

#include <span>

#include "fnv1a.hpp"

namespace elgrande::db {
namespace {

std::int64_t checksum(const std::string& bytes) {
  return static_cast<std::int64_t>(
      detail::fnv1a(detail::kFnvOffset, std::as_bytes(std::span(bytes.data(), bytes.size()))));
}

}  // namespace

SnapshotRow snapshot_row(std::int64_t seq, std::string bytes) {
  SnapshotRow row{seq, kModuleSnapshot, std::move(bytes), 0};
  row.checksum = checksum(row.state);
  return row;
}

std::optional<std::string> snapshot_bytes(const SnapshotRow& row, std::string& refused) {
  if (checksum(row.state) != row.checksum) {
    refused = "the snapshot's bytes do not match their checksum";
    return std::nullopt;
  }
  return row.state;
}

}  // namespace elgrande::db
