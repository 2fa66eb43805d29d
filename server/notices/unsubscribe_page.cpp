#include "notices/unsubscribe_page.hpp"

#include <spdlog/spdlog.h>

#include "accounts/accounts.hpp"
#include "elgrande/notices/catalogs.hpp"
#include "elgrande/notices/letters.hpp"
#include "elgrande/notices/mail.hpp"
#include "elgrande/notices/unsubscribe.hpp"
#include "notices/notice_sender.hpp"
#include "notices/reach.hpp"
#include "storage/storage.hpp"

namespace elgrande::server {
namespace {

constexpr std::string_view kPath = "/notices/unsubscribe";

std::string query_value(std::string_view target, std::string_view key) {
  const std::size_t question = target.find('?');
  if (question == std::string_view::npos) return {};
  std::string_view query = target.substr(question + 1);
  while (!query.empty()) {
    const std::string_view pair = query.substr(0, query.find('&'));
    if (pair.starts_with(key) && pair.size() > key.size() && pair[key.size()] == '=') {
      return std::string(pair.substr(key.size() + 1));
    }
    query.remove_prefix(std::min(query.size(), pair.size() + 1));
  }
  return {};
}

// The page's words, in one language of the catalogs ("unsubscribe.*" messages).
struct PageWords {
  std::string language;
  std::string operator()(std::string_view key, const nlohmann::json& arguments = nlohmann::json::object()) const {
    return notices::escape_html(notices::Catalogs::embedded().format(language, "unsubscribe." + std::string(key), arguments));
  }
  // The page titled by `title`, with `body` (both already escaped).
  std::string page(std::string_view title, std::string_view body) const {
    return "<!DOCTYPE html>\n<html lang=\"" + notices::escape_html(language) +
           "\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" +
           std::string(title) +
           "</title></head>\n<body style=\"font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em\">\n<h1>" +
           std::string(title) + "</h1>\n" + std::string(body) + "\n</body></html>\n";
  }
};

}  // namespace

bool answer_unsubscribe(const http::request<http::string_body>& request, const NoticeRequestsEnv& env, Respond respond) {
  const std::string_view target = request.target();
  if (target.substr(0, target.find('?')) != kPath) return false;
  const auto answer = [version = request.version(), keep_alive = request.keep_alive(),
                       head = request.method() == http::verb::head](http::status status, std::string body) {
    http::response<http::string_body> response{status, version};
    response.set(http::field::server, kServerName);
    response.set(http::field::content_type, "text/html; charset=utf-8");
    response.set(http::field::cache_control, "no-store");
    response.set("X-Content-Type-Options", "nosniff");
    response.set("Referrer-Policy", "no-referrer");  // the token stays out of other sites' logs
    response.keep_alive(keep_alive);
    response.content_length(body.size());
    if (!head) response.body() = std::move(body);
    return response;
  };
  const bool post = request.method() == http::verb::post;
  // The account's language, once the link says whose it is; the browser's until then.
  PageWords say{notices::Catalogs::embedded().preferred(request[http::field::accept_language])};
  if (!post && request.method() != http::verb::get && request.method() != http::verb::head) {
    respond(answer(http::status::method_not_allowed, say.page(say("not_here.title"), "<p>" + say("not_here.body") + "</p>")));
    return true;
  }
  const std::string token = query_value(target, "token");
  const auto unsubscribe = notices::read_unsubscribe_token(env.sender->keys().unsubscribe, token);
  if (!unsubscribe || (!notices::unsubscribable(unsubscribe->kind) && unsubscribe->kind != "digest")) {
    respond(answer(http::status::bad_request, say.page(say("bad_link.title"), "<p>" + say("bad_link.body") + "</p>")));
    return true;
  }
  if (const auto account = env.accounts ? env.accounts->of(unsubscribe->player) : std::nullopt;
      account && account->language) {
    say.language = *account->language;
  }
  const nlohmann::json kind{{"kind", unsubscribe->kind}};
  if (!post) {
    respond(answer(http::status::ok,
                   say.page(say("ask.title"), "<form method=\"post\" action=\"" + std::string(kPath) + "?token=" +
                                                  notices::escape_html(token) + "\"><p>" + say("ask.question", kind) +
                                                  "</p><p><button type=\"submit\">" + say("ask.button") +
                                                  "</button></p></form>")));
    return true;
  }
  notices::Preferences preferences = env.reach->preferences(unsubscribe->player);
  if (const auto kind = notices::kind_from_name(unsubscribe->kind)) {
    preferences.kinds[*kind].mail = false;
  } else {  // the digest: no notice by mail any more
    for (auto& [kind, channels] : preferences.kinds) channels.mail = false;
    preferences.digest = false;
  }
  auto shared_respond = std::make_shared<Respond>(std::move(respond));
  if (!env.storage->accepting()) {
    (*shared_respond)(answer(http::status::service_unavailable,
                             say.page(say("later.title"), "<p>" + say("later.cannot_save") + "</p>")));
    return true;
  }
  env.writer->write(
      [player = unsubscribe->player, text = notices::to_json(preferences).dump()](db::Store& store) {
        store.notices().set_preferences(player, text);
      },
      [&env, player = unsubscribe->player, preferences, answer, shared_respond, say, kind](bool committed) {
        if (!committed) {
          return (*shared_respond)(answer(http::status::service_unavailable,
                                          say.page(say("later.title"), "<p>" + say("later.not_saved") + "</p>")));
        }
        env.reach->set_preferences(player, preferences);
        spdlog::info("notices: player {} unsubscribed from {} by mail", player, kind["kind"].get<std::string>());
        (*shared_respond)(
            answer(http::status::ok, say.page(say("done.title"), "<p>" + say("done.body", kind) + "</p>")));
      });
  return true;
}

}  // namespace elgrande::server
