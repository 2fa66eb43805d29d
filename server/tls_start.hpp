#pragma once

// HTTPS at start (docs/deploy.md): the certificate, the plain HTTP port that redirects to
// it, and SIGHUP, which reloads the certificate. For main.cpp.

#include <boost/asio/signal_set.hpp>
#include <memory>

#include "app/services.hpp"
#include "net/listener.hpp"
#include "net/tls_certificate.hpp"
#include "ops/config.hpp"

namespace elgrande::server {

// The certificate the configuration names, checked (expired, mismatched key: TlsError);
// none without one.
std::shared_ptr<TlsCertificate> load_certificate(const Config& config);

// What the sessions need to know of it: the certificate, and where plain HTTP redirects.
void serve_tls(Services& services, const Config& config, std::shared_ptr<TlsCertificate> certificate);

// The plain HTTP port beside the HTTPS one, listening already; none without http_port.
std::shared_ptr<Listener> redirect_listener(net::io_context& io, const Config& config,
                                            std::shared_ptr<const Services> services);

// Until the signal set is cancelled: on each SIGHUP, the certificate's files are read
// again, for the connections after it (running games keep theirs). Without a certificate
// it is only logged: SIGHUP must not end the server, as its default action would.
void reload_on_hangup(net::signal_set& hangup, std::shared_ptr<TlsCertificate> certificate);

}  // namespace elgrande::server
