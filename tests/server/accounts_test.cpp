// Accounts without sockets: the rules for usernames and passwords, Argon2id hashes through
// libsodium, the sign-in throttle on a clock the test moves, and the registry of accounts
// and sessions saving to a real SQLite file through the Storage thread.

#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "server/server_fixtures.hpp"
#include "accounts/accounts.hpp"
#include "accounts/credentials.hpp"
#include "accounts/password_workers.hpp"
#include "accounts/sign_in_throttle.hpp"
#include "elgrande/db/schema.hpp"
#include "identity/identities.hpp"
#include "server/recording_recipient.hpp"
#include "storage/storage.hpp"
#include "support/temp_dir.hpp"

namespace db = elgrande::db;
using namespace elgrande::server;
using namespace elgrande::test;
using namespace std::chrono_literals;
using elgrande::test::RecordingRecipient;
using elgrande::test::TempDir;

namespace {

// Cheap enough for tests; the configured default is OWASP's 19 MiB and 2 passes.
const PasswordCost kCheap{64 * 1024, 1};

constexpr db::UnixMillis kDay = 24 * 60 * 60 * 1000;


// A server's identities and accounts on a real file, with a guest to sign up.
struct Registry {
  TempDir dir;
  std::filesystem::path file = dir.path() / "accounts.sqlite";
  Storage storage{migrated(file), std::make_shared<Metrics>()};
  Identities identities{storage};
  Accounts accounts{storage, identities, std::chrono::days(30)};

  Identities::Issued guest(const std::string& name) {
    std::promise<Identities::Issued> made;
    identities.create(name, [&made](const Identities::Issued& issued, bool saved) {
      REQUIRE(saved);
      made.set_value(issued);
    });
    return made.get_future().get();
  }
  NewSession sign_up(PlayerId player, const std::string& username, const std::string& password, db::UnixMillis now) {
    REQUIRE(accounts.hold(username));
    std::promise<std::optional<NewSession>> opened;
    accounts.sign_up(player, username, hash_password(password, kCheap), "laptop", std::nullopt, now,
                     [&opened](std::optional<NewSession> made) { opened.set_value(std::move(made)); });
    auto made = opened.get_future().get();
    REQUIRE(made);
    return *made;
  }
  NewSession open_session(PlayerId player, const std::string& device, db::UnixMillis now) {
    std::promise<std::optional<NewSession>> opened;
    accounts.open_session(player, device, now,
                          [&opened](std::optional<NewSession> made) { opened.set_value(std::move(made)); });
    auto made = opened.get_future().get();
    REQUIRE(made);
    return *made;
  }
  // Whether `recipient` is closed within a second: a session's connections are closed
  // just after the answer that ended it.
  static bool closes(const RecordingRecipient& recipient) {
    for (int i = 0; i < 100 && !recipient.closed(); ++i) std::this_thread::sleep_for(10ms);
    return recipient.closed();
  }
  // Waits for a write's callback.
  static Storage::Done waiter(std::promise<bool>& done) {
    return [&done](bool saved) { done.set_value(saved); };
  }
};

}  // namespace

TEST_CASE("usernames are 3 to 20 letters, digits, _ or -, and compared ignoring case", "[accounts]") {
  for (const char* good : {"ana", "Ana_P", "x-1", "ABCDEFGHIJKLMNOPQRST"}) {
    INFO(good);
    CHECK_FALSE(why_not_a_username(good));
  }
  for (const std::string& bad : {std::string(), std::string("ab"), std::string("ABCDEFGHIJKLMNOPQRSTU"),
                                 std::string("ana p"), std::string("ana.p"), std::string("Ána"), std::string("ana\n"),
                                 std::string("ana\0x", 5)}) {
    INFO(bad);
    CHECK(why_not_a_username(bad));
  }
  CHECK(username_key("Ana_P-9") == "ana_p-9");
  CHECK_FALSE(why_not_a_password("12345678"));
  CHECK(why_not_a_password("1234567"));
  CHECK_FALSE(why_not_a_password(std::string(256, 'p')));
  CHECK(why_not_a_password(std::string(257, 'p')));
}

TEST_CASE("a password hash is Argon2id with the configured cost, verifies only its password, and is salted",
          "[accounts]") {
  const std::string hash = hash_password("correct horse", kCheap);
  CHECK(hash.starts_with("$argon2id$v=19$m=64,t=1,p=1$"));
  CHECK(hash.find("correct horse") == std::string::npos);
  CHECK(verify_password(hash, "correct horse"));
  CHECK_FALSE(verify_password(hash, "correct horsE"));
  CHECK_FALSE(verify_password(hash, ""));
  CHECK(hash_password("correct horse", kCheap) != hash);  // a fresh salt every time
  CHECK_FALSE(verify_password("not a hash", "correct horse"));
  CHECK_FALSE(verify_password(std::string(500, '$'), "correct horse"));
  CHECK_FALSE(needs_rehash(hash, kCheap));
  CHECK(needs_rehash(hash, PasswordCost{128 * 1024, 1}));  // the configuration asks for more now
  // A password with a NUL byte in it is all of its bytes, not a prefix.
  const std::string with_nul("pass\0word", 9);
  CHECK_FALSE(verify_password(hash_password(with_nul, kCheap), "pass"));
}

TEST_CASE("failed sign-ins past the cap wait until the oldest leaves the window, per name and per address",
          "[accounts]") {
  SignInThrottle throttle({.per_username = 3, .per_address = 5, .window = 10min});
  const auto t0 = SignInThrottle::Clock::time_point{} + 24h;
  for (int i = 0; i < 3; ++i) {
    CHECK(throttle.wait("Ana", "10.0.0.1", t0 + i * 1min) == 0s);
    throttle.failed("Ana", "10.0.0.1", t0 + i * 1min);
  }
  // The name is spent, whatever the case it is typed in and wherever from; others are not.
  CHECK(throttle.wait("ANA", "10.9.9.9", t0 + 3min) == 7min);
  CHECK(throttle.wait("Bea", "10.0.0.1", t0 + 3min) == 0s);
  // The address: two more failures under other names spend it, for every name.
  throttle.failed("Bea", "10.0.0.1", t0 + 4min);
  throttle.failed("Cid", "10.0.0.1", t0 + 5min);
  CHECK(throttle.wait("Dan", "10.0.0.1", t0 + 6min) == 4min);
  CHECK(throttle.wait("Dan", "10.0.0.2", t0 + 6min) == 0s);
  CHECK(throttle.wait("Ana", "10.0.0.1", t0 + 10min) == 0s);  // the first failure has left both windows
  // IPv6 counts by its /64.
  for (int i = 0; i < 5; ++i) throttle.failed("Eva", "2001:db8::" + std::to_string(i + 1), t0 + 10min);
  CHECK(throttle.wait("Fay", "2001:db8::ffff", t0 + 11min) > 0s);
  // The right password forgives the name's failures, not the address's.
  throttle.failed("Ana", "10.0.0.4", t0 + 11min);
  throttle.failed("Ana", "10.0.0.4", t0 + 11min);  // with the one at 2 min: three
  CHECK(throttle.wait("Ana", "10.0.0.3", t0 + 11min) > 0s);
  throttle.succeeded("Ana");
  CHECK(throttle.wait("Ana", "10.0.0.3", t0 + 11min) == 0s);
}

TEST_CASE("usernames found taken at sign-up spend the address's failures, not the name's", "[accounts]") {
  SignInThrottle throttle({.per_username = 3, .per_address = 4, .window = 10min});
  const auto t0 = SignInThrottle::Clock::time_point{} + 24h;
  for (int i = 0; i < 3; ++i) {
    CHECK(throttle.wait("10.0.0.1", t0 + i * 1min) == 0s);
    throttle.name_taken("10.0.0.1", t0 + i * 1min);
  }
  throttle.failed("Ana", "10.0.0.1", t0 + 3min);  // with a failed sign-in: four
  CHECK(throttle.wait("10.0.0.1", t0 + 4min) == 6min);
  CHECK(throttle.wait("Bea", "10.0.0.1", t0 + 4min) == 6min);
  CHECK(throttle.wait("10.0.0.2", t0 + 4min) == 0s);
  // The names tried are not held against their owners' sign-ins elsewhere.
  CHECK(throttle.wait("Ana", "10.0.0.2", t0 + 4min) == 0s);
  CHECK(throttle.wait("10.0.0.1", t0 + 10min) == 0s);
}

TEST_CASE("password workers run jobs off the caller's thread and refuse past the queue's bound", "[accounts]") {
  PasswordWorkers workers(1, 2);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<std::thread::id> ran_on;
  CHECK(workers.post([released, &ran_on] {
    ran_on.set_value(std::this_thread::get_id());
    released.wait();
  }));
  CHECK(workers.post([] {}));
  CHECK_FALSE(workers.post([] {}));  // two wait already
  CHECK(ran_on.get_future().get() != std::this_thread::get_id());
  release.set_value();
  workers.stop();
}

TEST_CASE("a guest signs up keeping its id, its guest token stops working, and a session resumes it", "[accounts]") {
  Registry r;
  const Identities::Issued ana = r.guest("Ana");
  const NewSession first = r.sign_up(ana.player.id, "Ana_P", "correct horse", 1000);
  CHECK(first.session.player == ana.player.id);
  CHECK(first.token.size() == 64);
  CHECK_FALSE(r.identities.find_by_token(ana.token));
  CHECK(r.identities.find(ana.player.id) == ana.player);  // same id, same name
  const auto account = r.accounts.find("ana_p");
  REQUIRE(account);
  CHECK(account->player == ana.player.id);
  CHECK(account->role == Role::player);
  CHECK(verify_password(account->password_hash, "correct horse"));
  CHECK_FALSE(r.accounts.hold("ANA_P"));  // taken, ignoring case

  const auto resumed = r.accounts.resume(first.token, 2000);
  REQUIRE(resumed);
  CHECK(resumed->id == first.session.id);
  CHECK_FALSE(r.accounts.resume(ana.token, 2000));

  // All of it is in the file: a restarted server knows the account and the session.
  r.storage.stop();
  db::SqliteDatabase database(r.file);
  db::Store store(database);
  Storage storage(migrated(r.dir.path() / "other.sqlite"), std::make_shared<Metrics>());
  Identities identities(storage);
  identities.restore(store.players());
  Accounts restarted(storage, identities, std::chrono::days(30));
  restarted.restore(store.accounts().all(), store.accounts().sessions(), 3000);
  CHECK(restarted.find("Ana_P"));
  CHECK(restarted.resume(first.token, 3000));
  CHECK_FALSE(identities.find_by_token(ana.token));
}

TEST_CASE("a session idle for longer than the limit is over, one in use is not", "[accounts]") {
  Registry r;
  const PlayerId ana = r.guest("Ana").player.id;
  const NewSession phone = r.sign_up(ana, "ana", "correct horse", 0);
  const NewSession laptop = r.open_session(ana, "laptop", 0);
  CHECK(r.accounts.resume(phone.token, 20 * kDay));  // used on day 20: idle from there
  CHECK(r.accounts.resume(phone.token, 45 * kDay));
  CHECK_FALSE(r.accounts.resume(laptop.token, 31 * kDay));  // idle for 31 days
  CHECK_FALSE(r.accounts.resume(laptop.token, 31 * kDay));  // and gone for good
  CHECK(r.accounts.sessions_of(ana).size() == 1);
}

TEST_CASE("ending sessions and changing the password close the connections signed in with them", "[accounts]") {
  Registry r;
  const PlayerId ana = r.guest("Ana").player.id;
  const PlayerId bea = r.guest("Bea").player.id;
  const NewSession laptop = r.sign_up(ana, "ana", "correct horse", 0);
  const NewSession phone = r.open_session(ana, "phone", 0);
  const NewSession tablet = r.open_session(ana, "tablet", 0);
  const NewSession beas = r.sign_up(bea, "bea", "battery staple", 0);
  auto on_laptop = std::make_shared<RecordingRecipient>();
  auto on_phone = std::make_shared<RecordingRecipient>();
  auto on_tablet = std::make_shared<RecordingRecipient>();
  auto beas_connection = std::make_shared<RecordingRecipient>();
  r.accounts.attach(laptop.session.id, on_laptop);
  r.accounts.attach(phone.session.id, on_phone);
  r.accounts.attach(tablet.session.id, on_tablet);
  r.accounts.attach(beas.session.id, beas_connection);

  CHECK_FALSE(r.accounts.end_session(bea, phone.session.id, [](bool) {}));  // not Bea's to end
  std::promise<bool> ended;
  REQUIRE(r.accounts.end_session(ana, phone.session.id, Registry::waiter(ended)));
  CHECK(ended.get_future().get());
  CHECK(Registry::closes(*on_phone));
  CHECK_FALSE(on_laptop->closed());
  CHECK_FALSE(r.accounts.resume(phone.token, 1));

  std::promise<bool> changed;
  r.accounts.change_password(ana, hash_password("new password", kCheap), laptop.session.id, Registry::waiter(changed));
  CHECK(changed.get_future().get());
  CHECK(Registry::closes(*on_tablet));
  CHECK_FALSE(on_laptop->closed());
  CHECK(r.accounts.resume(laptop.token, 1));
  CHECK_FALSE(r.accounts.resume(tablet.token, 1));
  CHECK(verify_password(r.accounts.of(ana)->password_hash, "new password"));
  CHECK_FALSE(beas_connection->closed());  // another account's sessions are untouched
  CHECK(r.accounts.resume(beas.token, 1));

  std::promise<bool> all;
  r.accounts.end_sessions(ana, std::nullopt, Registry::waiter(all));
  CHECK(all.get_future().get());
  CHECK(Registry::closes(*on_laptop));
  CHECK(r.accounts.sessions_of(ana).empty());
  r.storage.stop();
  db::SqliteDatabase database(r.file);
  db::Store store(database);
  CHECK(store.accounts().sessions().size() == 1);  // Bea's
  CHECK(verify_password(store.accounts().find("ana")->password_hash, "new password"));
}
