#pragma once

// What store.cpp and store_log.cpp share: the command log read back from its rows.

#include <cstdint>
#include <string>
#include <string_view>

#include "elgrande/db/store.hpp"

namespace elgrande::db::detail {

// Table ?1's whole log, as a subquery: its rows in `commands`, then those of the command
// ring not copied there yet (the view `command_log`, with the table chosen inside each
// half so that both read by key).
std::string log_of_table();

Source source_from(std::string_view name);

}  // namespace elgrande::db::detail
