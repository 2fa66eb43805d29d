#include "tls_start.hpp"

#include <spdlog/spdlog.h>

#include <string>
#include <utility>

namespace elgrande::server {

std::shared_ptr<TlsCertificate> load_certificate(const Config& config) {
  if (!config.tls()) return nullptr;
  auto certificate = std::make_shared<TlsCertificate>(config.tls_certificate, config.tls_private_key);
  spdlog::info("serving HTTPS and WSS with the certificate {}", certificate->describe());
  return certificate;
}

void serve_tls(Services& services, const Config& config, std::shared_ptr<TlsCertificate> certificate) {
  services.tls = std::move(certificate);
  services.acme_challenge_dir = config.acme_challenge_dir;
  if (config.public_url.starts_with("https://")) {
    const std::size_t path = config.public_url.find('/', std::string_view("https://").size());
    services.https_origin = config.public_url.substr(0, path);
  }
}

std::shared_ptr<Listener> redirect_listener(net::io_context& io, const Config& config,
                                            std::shared_ptr<const Services> services) {
  if (config.http_port == 0) return nullptr;
  auto listener = std::make_shared<Listener>(io, tcp::endpoint(net::ip::make_address(config.bind_address), config.http_port),
                                             std::move(services), HttpRole::redirect_to_https);
  spdlog::info("plain HTTP on port {} redirects to HTTPS{}", config.http_port,
               config.acme_challenge_dir.empty() ? "" : ", and answers certbot's challenges from " +
                                                            config.acme_challenge_dir.string());
  return listener;
}

void reload_on_hangup(net::signal_set& hangup, std::shared_ptr<TlsCertificate> certificate) {
  hangup.async_wait([&hangup, certificate = std::move(certificate)](beast::error_code ec, int) {
    if (ec) return;
    if (!certificate) {
      spdlog::info("SIGHUP: no TLS certificate to reload");
    } else {
      try {
        certificate->reload();
        spdlog::info("SIGHUP: reloaded the TLS certificate: {}", certificate->describe());
      } catch (const TlsError& error) {
        spdlog::error("SIGHUP: {}; still serving the certificate {}", error.what(), certificate->describe());
      }
    }
    reload_on_hangup(hangup, certificate);
  });
}

}  // namespace elgrande::server
