// A table's chat on its own: what a line may be, who is muted or too fast, what each member
// is shown of the last lines given whom they block, a moderator's removal and a rename.
#include <catch2/catch.hpp>

#include "moderation/block_lists.hpp"
#include "moderation/sanctions.hpp"
#include "server/server_fixtures.hpp"
#include "storage/storage.hpp"
#include "support/temp_dir.hpp"
#include "tables/table_chat.hpp"

using namespace elgrande::server;
using namespace elgrande::test;
namespace db = elgrande::db;
using nlohmann::json;

namespace {

struct ChatRoom {
  TempDir dir;
  Storage storage{migrated(dir.path() / "chat.sqlite"), std::make_shared<Metrics>()};
  ChatLimits limits;
  Sanctions sanctions{storage};
  BlockLists block_lists{storage};
  IdSupply line_ids = IdSupply::after(100);
  TableChat chat{TableChat::Shared{limits, &sanctions, &block_lists, &line_ids}};
  ChatLimits::Clock::time_point now = ChatLimits::Clock::now();

  std::variant<db::ChatLine, Refusal> say(const elgrande::server::Player& who, std::string text,
                                          std::optional<int> seat = 0) {
    now += std::chrono::seconds(3);
    return chat.say(who, seat, json(std::move(text)), now, 1'000'000);
  }
};

std::vector<std::string> texts(const json& lines) {
  std::vector<std::string> said;
  for (const json& line : lines) said.push_back(line.value("text", "(removed)"));
  return said;
}

}  // namespace

TEST_CASE("a chat line is a string of 1 to 500 bytes", "[chat]") {
  const json too_long(std::string(TableChat::kMaxBytes + 1, 'a'));
  const json longest(std::string(TableChat::kMaxBytes, 'a'));
  const json empty("");
  const json number(5);
  for (const json* bad : {&too_long, &empty, &number, static_cast<const json*>(nullptr)}) {
    const auto refusal = TableChat::check_text(bad);
    REQUIRE(refusal);
    CHECK(refusal->code == elgrande::protocol::ErrorCode::bad_payload);
    CHECK(refusal->message == "text: must be a string of 1 to 500 bytes");
  }
  CHECK_FALSE(TableChat::check_text(&longest));
}

TEST_CASE("lines are numbered across tables and kept, the last 50, oldest first", "[chat]") {
  ChatRoom room;
  for (int i = 0; i < 60; ++i) {
    const auto said = room.say(i % 2 ? ana : ben, "line " + std::to_string(i));
    REQUIRE(std::holds_alternative<db::ChatLine>(said));
    CHECK(std::get<db::ChatLine>(said).id == 101 + i);
  }
  const json lines = room.chat.history_for(cid.id);
  REQUIRE(lines.size() == static_cast<std::size_t>(db::kRecentChat));
  CHECK(lines.front()["text"] == "line 10");
  CHECK(lines.back()["text"] == "line 59");
  CHECK(lines.back()["from"]["name"] == "Ana");
  CHECK(lines.back()["seat"] == 0);
}

TEST_CASE("a muted player, one who says too much too fast or the same line twice, is refused", "[chat]") {
  ChatRoom room;
  room.sanctions.restore({db::SanctionRecord{ben.id, "mute", std::nullopt, "spam"}});
  const auto muted = room.say(ben, "hello");
  REQUIRE(std::holds_alternative<Refusal>(muted));
  CHECK(std::get<Refusal>(muted).code == elgrande::protocol::ErrorCode::forbidden);
  CHECK_THAT(std::get<Refusal>(muted).message, Catch::StartsWith("you are muted"));
  CHECK(std::get<Refusal>(muted).facts == json{{"moderator_reason", "spam"}});  // until lifted: no until

  REQUIRE(std::holds_alternative<db::ChatLine>(room.say(ana, "hola")));
  const auto again = room.say(ana, "hola");
  REQUIRE(std::holds_alternative<Refusal>(again));
  CHECK(std::get<Refusal>(again).message == "you said that just now");
  CHECK(std::get<Refusal>(again).facts == json{{"why", "repeated"}});  // for the client's own words

  for (int i = 0; i < 4; ++i) REQUIRE(std::holds_alternative<db::ChatLine>(room.chat.say(ana, 0, json(std::to_string(i)), room.now, 0)));
  const auto fast = room.chat.say(ana, 0, json("one more"), room.now, 0);
  REQUIRE(std::holds_alternative<Refusal>(fast));
  CHECK(std::get<Refusal>(fast).code == elgrande::protocol::ErrorCode::rate_limited);
  CHECK(std::get<Refusal>(fast).facts["why"] == "too_fast");
  CHECK(texts(room.chat.history_for(cid.id)) == std::vector<std::string>{"hola", "0", "1", "2", "3"});
}

TEST_CASE("a member is not shown the lines of whom they block, and a removed line keeps no text", "[chat]") {
  ChatRoom room;
  room.block_lists.restore({{cid.id, ben.id}});
  room.say(ana, "a");
  const auto bens = room.say(ben, "b");
  room.say(ana, "c");
  CHECK(texts(room.chat.history_for(cid.id)) == std::vector<std::string>{"a", "c"});
  CHECK(texts(room.chat.history_for(ana.id)) == std::vector<std::string>{"a", "b", "c"});
  CHECK(room.chat.blocks(cid.id, ben.id));
  CHECK_FALSE(room.chat.blocks(ben.id, cid.id));

  const std::int64_t line = std::get<db::ChatLine>(bens).id;
  const auto removed = room.chat.remove(line);
  REQUIRE(removed);
  CHECK(removed->text == "b");  // for the audit log
  CHECK_FALSE(room.chat.remove(line));  // gone already
  CHECK_FALSE(room.chat.remove(9999));
  CHECK(texts(room.chat.history_for(ana.id)) == std::vector<std::string>{"a", "(removed)", "c"});
  CHECK(room.chat.history_for(ana.id)[1]["removed"] == true);
}

TEST_CASE("a player's new name shows on their lines", "[chat]") {
  ChatRoom room;
  room.say(ana, "a");
  CHECK(room.chat.rename({ana.id, "Anita"}));
  CHECK_FALSE(room.chat.rename({ben.id, "Benito"}));
  CHECK(room.chat.history_for(ben.id)[0]["from"]["name"] == "Anita");
}
