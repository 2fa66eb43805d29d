#pragma once

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/recipient.hpp"

namespace elgrande::test {

// A connection that keeps what it is sent, in order, and whether it was cut off.
class RecordingRecipient : public server::Recipient {
 public:
  using server::Recipient::deliver;

  void deliver(std::shared_ptr<const std::string> message) override {
    const std::lock_guard lock(mutex_);
    received_.push_back(*message);
  }
  void close() override {
    const std::lock_guard lock(mutex_);
    closed_ = true;
  }

  std::vector<std::string> received() const {
    const std::lock_guard lock(mutex_);
    return received_;
  }
  bool closed() const {
    const std::lock_guard lock(mutex_);
    return closed_;
  }

  // The received messages as JSON, and those of one type.
  std::vector<nlohmann::json> messages() const {
    std::vector<nlohmann::json> parsed;
    for (const std::string& text : received()) parsed.push_back(nlohmann::json::parse(text));
    return parsed;
  }
  std::vector<nlohmann::json> of_type(std::string_view type) const {
    std::vector<nlohmann::json> found;
    for (nlohmann::json& message : messages()) {
      if (message.at("type") == type) found.push_back(std::move(message));
    }
    return found;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> received_;
  bool closed_ = false;
};

}  // namespace elgrande::test
