#include "net/peer_clients.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <chrono>
#include <deque>
#include <utility>

#include "app/dispatcher.hpp"
#include "net/router.hpp"
#include "net/session_registry.hpp"
#include "ops/metrics.hpp"

namespace elgrande::server {
namespace {

constexpr auto kGoingAway = static_cast<std::uint16_t>(websocket::close_code::going_away);

}  // namespace

// One relayed client. Its messages wait in order on its strand while an answer holds
// reading (hello saving an identity), as a socket's would stay unread.
class PeerClients::Relayed : public Client, public std::enable_shared_from_this<Relayed> {
 public:
  Relayed(Strand strand, std::shared_ptr<PeerLink> link, std::uint64_t id, std::shared_ptr<const Services> services)
      : strand_(std::move(strand)), link_(std::move(link)), id_(id), services_(std::move(services)) {}

  ~Relayed() override {
    services_->sessions->leave(this);
    farewell(*services_, *this);
  }

  // A message the client sent, in order; from the link's strand.
  void received(std::string text) {
    services_->metrics->messages_in.fetch_add(1, std::memory_order_relaxed);
    net::post(strand_, [self = shared_from_this(), text = std::move(text)]() mutable {
      self->waiting_.push_back(std::move(text));
      self->handle_waiting();
    });
  }
  // Its socket closed: nothing more goes to it.
  void gone() { gone_.store(true, std::memory_order_relaxed); }

  // Recipient.
  void deliver(std::shared_ptr<const std::string> message) override { relay(PeerKind::deliver, *message); }
  void deliver(std::shared_ptr<const std::string> first, std::shared_ptr<const std::string> then) override {
    relay(PeerKind::deliver, *first, &*then);
  }
  using Recipient::deliver;
  void close() override { relay(PeerKind::drop, {}); }
  void end(protocol::CloseCode code, std::string_view reason) override {
    relay(PeerKind::end, end_body(static_cast<std::uint16_t>(code), reason));
  }

  // Client.
  void send(std::string message) override { relay(PeerKind::deliver, message); }
  void post(std::function<void()> work) override {
    net::post(strand_, [self = shared_from_this(), work = std::move(work)] { work(); });
  }
  void pause_reading() override { paused_ = true; }
  void resume_reading() override {
    paused_ = false;
    if (!handling_) post([this] { handle_waiting(); });
  }
  std::shared_ptr<Client> self() override { return shared_from_this(); }
  void go_away() override { relay(PeerKind::end, end_body(kGoingAway, {})); }

 private:
  // Sends `body` (and `then`, in the same frame) unless its socket has closed.
  void relay(PeerKind kind, std::string_view body, const std::string* then = nullptr) {
    if (gone_.load(std::memory_order_relaxed)) return;
    if (kind == PeerKind::deliver) services_->metrics->messages_out.fetch_add(then ? 2 : 1, std::memory_order_relaxed);
    if (then) return link_->send(kind, id_, body, *then);
    link_->send(kind, id_, body);
  }

  void handle_waiting() {
    if (handling_) return;
    handling_ = true;
    while (!paused_ && !waiting_.empty() && !gone_.load(std::memory_order_relaxed)) {
      const std::string text = std::move(waiting_.front());
      waiting_.pop_front();
      dispatch(*services_, *this, text, std::chrono::steady_clock::now());
    }
    handling_ = false;
  }

  Strand strand_;
  std::shared_ptr<PeerLink> link_;
  const std::uint64_t id_;
  std::shared_ptr<const Services> services_;
  std::atomic<bool> gone_ = false;
  std::deque<std::string> waiting_;  // the strand's, as the rest below
  bool paused_ = false;
  bool handling_ = false;
};

PeerClients::PeerClients(net::io_context& io, std::shared_ptr<const Services> services)
    : io_(io), services_(std::move(services)) {}

PeerClients::~PeerClients() = default;

void PeerClients::received(const PeerMessage& message) {
  const std::shared_ptr<PeerLink> link = link_.lock();
  if (!link) return;
  switch (message.kind) {
    case PeerKind::open: {
      auto client = std::make_shared<Relayed>(net::make_strand(io_), link, message.connection, services_);
      client->address = std::string(message.body);
      if (!services_->sessions->join(client)) {
        // Shutdown has begun: the connection is simply not served.
        client->gone();
        link->send(PeerKind::end, message.connection, end_body(kGoingAway, {}));
        return;
      }
      services_->metrics->connections_total.fetch_add(1, std::memory_order_relaxed);
      clients_[message.connection] = std::move(client);
      return;
    }
    case PeerKind::text:
      if (const auto found = clients_.find(message.connection); found != clients_.end()) {
        found->second->received(std::string(message.body));
      }
      return;
    case PeerKind::closed:
      if (const auto found = clients_.find(message.connection); found != clients_.end()) {
        found->second->gone();
        clients_.erase(found);
      }
      return;
    case PeerKind::http:
      return answer_http(*link, message.connection, message.body);
    default:
      spdlog::warn("a peer process sent a message meant for the other end of its link (kind {})",
                   static_cast<int>(message.kind));
      return link->close();
  }
}

void PeerClients::lost() {
  if (!clients_.empty()) spdlog::info("a peer link closed: its {} client(s) are gone", clients_.size());
  for (auto& [id, client] : clients_) client->gone();
  clients_.clear();
}

void PeerClients::answer_http(PeerLink& link, std::uint64_t request, std::string_view bytes) {
  http::request_parser<http::string_body> parser;
  parser.eager(true);
  beast::error_code ec;
  parser.put(net::buffer(bytes.data(), bytes.size()), ec);
  if (ec || !parser.is_done()) {
    spdlog::warn("a peer process relayed an HTTP request that does not parse: {}", ec ? ec.message() : "incomplete");
    return link.close();
  }
  answer_request(parser.release(), *services_, [link = link.shared_from_this(), request](http::message_generator answer) {
    link->send(PeerKind::http_answer, request, serialise(std::move(answer)));
  });
}

}  // namespace elgrande::server
