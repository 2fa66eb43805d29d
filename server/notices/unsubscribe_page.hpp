#pragma once

#include "common/net.hpp"
#include "notices/notice_requests.hpp"

namespace elgrande::server {

// GET and POST /notices/unsubscribe?token=T, the link in every notice mail (RFC 8058):
// GET shows a page with one button, so that a mail scanner following links changes
// nothing; POST (that button, or a mail client's one click) turns that kind of notice off
// by mail, once saved. Returns false, without calling `respond`, for any other request.
bool answer_unsubscribe(const http::request<http::string_body>& request, const NoticeRequestsEnv& env, Respond respond);

}  // namespace elgrande::server
