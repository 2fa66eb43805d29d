// elgrande-relay: the floor under the server's cost per command (docs/performance.md). A
// bare Boost.Beast WebSocket server with no game and no database: it groups connections
// into tables and, for each command a seat sends, answers the sender with an
// acknowledgement and sends every connection of the table an update, of the sizes the
// command asks for. elgrande-load --relay plays against it with the frame sizes measured
// on the real server, so both do the same network work and the ratio of their CPU per
// command is what the game, the views and the database cost on top.
//
// Frames from a client: "J<table>" joins a table (answered "J"); "C<ack> <update> ..."
// is a command, padded to the size of a real one.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <charconv>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
// Each connection on a strand of its own, named by its type as the server's are.
using Strand = net::strand<net::io_context::executor_type>;
using StrandSocket = tcp::socket::rebind_executor<Strand>::other;

class Session;
using Frame = std::shared_ptr<const std::string>;

// The connections of each table, as the server's table feed holds them.
struct Tables {
  std::mutex lock;
  std::map<long, std::vector<std::weak_ptr<Session>>> members;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(StrandSocket socket, Tables& tables) : ws_(std::move(socket)), tables_(tables) {}

  void start() {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.async_accept(beast::bind_front_handler(&Session::on_accept, shared_from_this()));
  }

  // From any thread, as the server's connections are handed frames.
  void deliver(Frame frame) {
    net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
      self->outbox_.push_back(std::move(frame));
      if (self->outbox_.size() == 1) self->write();
    });
  }

 private:
  void on_accept(beast::error_code ec) {
    if (!ec) read();
  }

  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->on_frame(beast::buffers_to_string(self->buffer_.data()));
      self->buffer_.consume(self->buffer_.size());
      self->read();
    });
  }

  void on_frame(const std::string& text) {
    if (text.empty()) return;
    if (text[0] == 'J') {
      table_ = std::stol(text.substr(1));
      {
        const std::lock_guard guard(tables_.lock);
        tables_.members[table_].push_back(weak_from_this());
      }
      deliver(std::make_shared<const std::string>("J"));
      return;
    }
    std::size_t ack = 0, update = 0;
    const char* end = text.data() + text.size();
    const auto first = std::from_chars(text.data() + 1, end, ack);
    std::from_chars(first.ptr + 1, end, update);
    deliver(std::make_shared<const std::string>(std::string(std::max<std::size_t>(ack, 1), 'A')));
    const auto frame = std::make_shared<const std::string>(std::string(std::max<std::size_t>(update, 1), 'U'));
    std::vector<std::shared_ptr<Session>> members;
    {
      const std::lock_guard guard(tables_.lock);
      for (const auto& weak : tables_.members[table_])
        if (auto member = weak.lock()) members.push_back(std::move(member));
    }
    for (const auto& member : members) member->deliver(frame);
  }

  void write() {
    ws_.async_write(net::buffer(*outbox_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->outbox_.pop_front();
      if (!self->outbox_.empty()) self->write();
    });
  }

  websocket::stream<beast::basic_stream<tcp, Strand>> ws_;
  Tables& tables_;
  beast::flat_buffer buffer_;
  std::deque<Frame> outbox_;
  long table_ = -1;
};

void accept(tcp::acceptor& acceptor, net::io_context& io, Tables& tables) {
  acceptor.async_accept(net::make_strand(io.get_executor()), [&](beast::error_code ec, StrandSocket socket) {
    if (!ec) {
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<Session>(std::move(socket), tables)->start();
    }
    accept(acceptor, io, tables);
  });
}

}  // namespace

int main(int argc, char** argv) {
  // As many I/O threads as the server starts by default (one per core less one), so both
  // sides of the comparison run the same event loop.
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int threads = argc > 1 ? std::max(1, std::atoi(argv[1])) : std::max(1, cores - 1);
  net::io_context io(threads);
  tcp::acceptor acceptor(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  acceptor.listen(net::socket_base::max_listen_connections);
  Tables tables;
  accept(acceptor, io, tables);
  net::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) { io.stop(); });
  std::printf("listening on 127.0.0.1:%u\n", acceptor.local_endpoint().port());
  std::fflush(stdout);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back([&io] { io.run(); });
  io.run();
  for (std::thread& thread : pool) thread.join();
}
