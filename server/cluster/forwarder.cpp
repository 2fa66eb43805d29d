#include "cluster/forwarder.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <utility>

namespace elgrande::server {

std::string proxy_line(const tcp::endpoint& client, const tcp::endpoint& local) {
  const bool v4 = client.address().is_v4() && local.address().is_v4();
  return std::string("PROXY ") + (v4 ? "TCP4 " : "TCP6 ") + client.address().to_string() + " " +
         local.address().to_string() + " " + std::to_string(client.port()) + " " + std::to_string(local.port()) + "\r\n";
}

std::optional<std::string> proxied_client(std::string_view line) {
  // PROXY TCP4|TCP6 <source> <destination> <source port> <destination port>
  if (!line.starts_with("PROXY TCP4 ") && !line.starts_with("PROXY TCP6 ")) return std::nullopt;
  line.remove_prefix(11);
  const std::string_view source = line.substr(0, line.find(' '));
  boost::system::error_code ec;
  const auto address = net::ip::make_address(source, ec);
  if (ec) return std::nullopt;
  return address.to_string();
}

// One client's connection and its twin to the leader, each direction pumped on its own;
// whichever side ends closes both.
class Forwarder::Pipe : public std::enable_shared_from_this<Pipe> {
 public:
  Pipe(Forwarder& owner, tcp::socket client)
      : owner_(owner), client_(std::move(client)), leader_(client_.get_executor()), resolver_(client_.get_executor()) {}

  void start(const std::string& leader) {
    const std::size_t colon = leader.rfind(':');
    std::string host = leader.substr(0, colon);
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);  // an IPv6 literal
    beast::error_code ec;
    prefix_ = proxy_line(client_.remote_endpoint(ec), client_.local_endpoint(ec));
    resolver_.async_resolve(host, leader.substr(colon + 1), beast::bind_front_handler(&Pipe::on_resolve, shared_from_this()));
  }

  // On the pipe's strand.
  void close() {
    net::dispatch(client_.get_executor(), [self = shared_from_this()] {
      beast::error_code ignored;
      self->client_.close(ignored);
      self->leader_.close(ignored);
      std::lock_guard lock(self->owner_.mutex_);
      self->owner_.pipes_.erase(self);
    });
  }

 private:
  // Small: the game's messages are, and a forwarding process holds two per client.
  using Buffer = std::array<char, 4 * 1024>;

  void on_resolve(beast::error_code ec, const tcp::resolver::results_type& found) {
    if (ec) return close();
    net::async_connect(leader_, found, beast::bind_front_handler(&Pipe::on_connect, shared_from_this()));
  }

  void on_connect(beast::error_code ec, const tcp::endpoint&) {
    if (ec) return close();
    leader_.set_option(tcp::no_delay(true), ec);
    client_.set_option(tcp::no_delay(true), ec);
    net::async_write(leader_, net::buffer(prefix_), beast::bind_front_handler(&Pipe::on_prefix, shared_from_this()));
  }

  void on_prefix(beast::error_code ec, std::size_t) {
    if (ec) return close();
    pump(client_, leader_, up_);
    pump(leader_, client_, down_);
  }

  void pump(tcp::socket& from, tcp::socket& to, Buffer& buffer) {
    from.async_read_some(net::buffer(buffer), [self = shared_from_this(), &from, &to, &buffer](beast::error_code ec,
                                                                                               std::size_t read) {
      if (ec) return self->close();
      net::async_write(to, net::buffer(buffer.data(), read), [self, &from, &to, &buffer](beast::error_code ec, std::size_t) {
        if (ec) return self->close();
        self->pump(from, to, buffer);
      });
    });
  }

  Forwarder& owner_;
  tcp::socket client_;
  tcp::socket leader_;
  tcp::resolver resolver_;
  std::string prefix_;
  Buffer up_{};
  Buffer down_{};
};

Forwarder::Forwarder(net::io_context& io, const tcp::endpoint& endpoint)
    : io_(io), acceptor_(net::make_strand(io)), retry_(acceptor_.get_executor()) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
}

Forwarder::~Forwarder() = default;

void Forwarder::run() { net::dispatch(acceptor_.get_executor(), [this] { do_accept(); }); }

void Forwarder::do_accept() {
  acceptor_.async_accept(net::make_strand(io_), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;
    if (ec) {
      // Out of descriptors, most likely: wait for some to be given back rather than spin.
      fail(ec, "forwarder accept");
      retry_.expires_after(std::chrono::milliseconds(100));
      return retry_.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) do_accept();
      });
    }
    std::optional<std::string> leader;
    std::shared_ptr<Pipe> pipe;
    {
      std::lock_guard lock(mutex_);
      leader = leader_;
      if (leader) pipes_.insert(pipe = std::make_shared<Pipe>(*this, std::move(socket)));
    }
    // Without a leader the connection is closed: its client tries again, as after a restart.
    if (pipe) pipe->start(*leader);
    do_accept();
  });
}

void Forwarder::set_leader(std::optional<std::string> address) {
  std::set<std::shared_ptr<Pipe>> old;
  {
    std::lock_guard lock(mutex_);
    if (leader_ == address) return;
    spdlog::info("forwarding clients to {}", address ? "the leader at " + *address : std::string("nobody: no leader"));
    leader_ = std::move(address);
    old = pipes_;
  }
  for (const auto& pipe : old) pipe->close();
}

void Forwarder::stop() {
  net::dispatch(acceptor_.get_executor(), [this] {
    beast::error_code ignored;
    acceptor_.close(ignored);
    retry_.cancel();
  });
  set_leader(std::nullopt);
}

}  // namespace elgrande::server
