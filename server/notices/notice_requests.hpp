#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

#include "common/sliding_window.hpp"
#include "requests/answers.hpp"

namespace elgrande::server {

class Accounts;
class NoticeSender;
class Reach;
class Storage;
struct AccountRequestsEnv;

// Caps on what mails links, so that nobody floods a mailbox or guesses at speed.
class MailThrottle {
 public:
  using Clock = SlidingWindow::Clock;
  // Whether one more of `what` for `key` fits its cap within the hour; if so, it counts.
  bool take(std::string_view what, const std::string& key, std::size_t cap, Clock::time_point now);

 private:
  std::mutex mutex_;
  SlidingWindow hour_{std::chrono::hours(1)};
};

// What the notice requests need (docs/notifications.md#messages).
struct NoticeRequestsEnv : RequestEnv {
  Storage* writer = nullptr;
  Accounts* accounts = nullptr;
  Reach* reach = nullptr;
  NoticeSender* sender = nullptr;
  const AccountRequestsEnv* account_requests = nullptr;  // for hashing a new password
  MailThrottle* throttle = nullptr;
  bool mail = false;  // a relay is configured
  bool push_over_http = false;  // push endpoints may be http:// (tests only)
};

void set_email(const NoticeRequestsEnv& env, Client& client, Request& request);
void verify_email(const NoticeRequestsEnv& env, Client& client, Request& request);
void remove_email(const NoticeRequestsEnv& env, Client& client, Request& request);
void forgot_password(const NoticeRequestsEnv& env, Client& client, Request& request);
void reset_password(const NoticeRequestsEnv& env, Client& client, Request& request);
void notice_preferences(const NoticeRequestsEnv& env, Client& client, Request& request);
void set_notice_preferences(const NoticeRequestsEnv& env, Client& client, Request& request);
void push_key(const NoticeRequestsEnv& env, Client& client, Request& request);
void push_subscribe(const NoticeRequestsEnv& env, Client& client, Request& request);
void push_devices(const NoticeRequestsEnv& env, Client& client, Request& request);
void push_remove(const NoticeRequestsEnv& env, Client& client, Request& request);

}  // namespace elgrande::server
