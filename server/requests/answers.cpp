#include "requests/answers.hpp"

#include "storage/storage.hpp"

namespace elgrande::server {

bool refuse_while_storage_refuses(const RequestEnv& env, Client& client, const std::optional<protocol::RequestId>& id) {
  if (env.storage->accepting()) return false;
  refuse(env, client, protocol::ErrorCode::unavailable,
         "the server cannot save changes at the moment; nothing changed, try again shortly", id);
  return true;
}

}  // namespace elgrande::server
