#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "elgrande/notices/mail.hpp"

using namespace elgrande::notices;

namespace {

Mail sample_mail() {
  Mail mail;
  mail.from = {"El Grande", "notices@play.example.org"};
  mail.to = {"Jan Kowalski", "jan@example.org"};
  mail.subject = "Your turn at table 12";
  mail.text = "It is your turn.\nhttps://play.example.org/t/12\n";
  mail.html = "<p>It is your turn.</p>\n";
  mail.message_id = "notice-12.k3j@play.example.org";
  mail.date = 1767225600;  // 2026-01-01
  return mail;
}

// The header block, unfolded, as lines.
std::vector<std::string> header_lines(const std::string& message) {
  std::string head = message.substr(0, message.find("\r\n\r\n") + 2);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < head.size()) {
    std::size_t end = head.find("\r\n", start);
    std::string line = head.substr(start, end - start);
    if (!lines.empty() && (line.front() == ' ' || line.front() == '\t')) {
      lines.back() += line;
    } else {
      lines.push_back(line);
    }
    start = end + 2;
  }
  return lines;
}

std::vector<std::string> all_lines(const std::string& message) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < message.size()) {
    std::size_t end = message.find("\r\n", start);
    REQUIRE(end != std::string::npos);
    lines.push_back(message.substr(start, end - start));
    start = end + 2;
  }
  return lines;
}

int count_starting(const std::vector<std::string>& lines, std::string_view prefix) {
  int n = 0;
  for (const auto& line : lines) n += line.starts_with(prefix) ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("Addresses a person typed are accepted or refused with a reason") {
  for (std::string_view good : {"jan@example.org", "Jan.Kowalski@example.org", "a@b.co", "x+tag@mail.example.org",
                                "o'brien@example.ie", "!#$%&'*+-/=?^_`{|}~@example.org", "a.b.c@sub-domain.example.org",
                                "1@123.example", "user@xn--bcher-kva.example"}) {
    INFO(good);
    CHECK_FALSE(why_not_an_address(good));
  }
  const std::string long_local = std::string(65, 'a') + "@example.org";
  const std::string long_label = "a@" + std::string(64, 'b') + ".org";
  const std::string too_long = std::string(64, 'a') + "@" + std::string(63, 'b') + "." + std::string(63, 'c') + "." +
                               std::string(63, 'd') + ".org";
  for (std::string_view bad : std::vector<std::string_view>{"", "jan", "jan@", "@example.org", "jan@example", "jan@@example.org", "jan@a@example.org",
                               ".jan@example.org", "jan.@example.org", "ja..n@example.org", "jan@.example.org",
                               "jan@example.org.", "jan@example..org", "jan@-example.org", "jan@example-.org",
                               "jan@exa_mple.org", "\"jan\"@example.org", "jan@[192.0.2.1]", "jan kowalski@example.org",
                               "jan@example.org\r\nBcc: victim@example.org", "jan\n@example.org", "jan\t@example.org",
                               "jan@exämple.org", "jän@example.org", "jan(comment)@example.org", "jan,x@example.org",
                               "<jan@example.org>", "jan@example.org ", std::string_view(long_local),
                               std::string_view(long_label), std::string_view(too_long)}) {
    INFO(bad);
    CHECK(why_not_an_address(bad));
  }
  CHECK(too_long.size() > 254);
  CHECK_FALSE(why_not_an_address(std::string(64, 'a') + "@" + std::string(63, 'b') + "." + std::string(63, 'c') + "." +
                                 std::string(57, 'd') + ".org"));
}

TEST_CASE("A plain mail has its headers in order, CRLF line ends and quoted-printable parts") {
  std::string message = render(sample_mail());
  auto lines = header_lines(message);
  REQUIRE(lines.size() == 8);
  CHECK(lines[0] == "Date: Thu, 01 Jan 2026 00:00:00 +0000");
  CHECK(lines[1] == "From: El Grande <notices@play.example.org>");
  CHECK(lines[2] == "To: Jan Kowalski <jan@example.org>");
  CHECK(lines[3] == "Subject: Your turn at table 12");
  CHECK(lines[4] == "Message-ID: <notice-12.k3j@play.example.org>");
  CHECK(lines[5] == "MIME-Version: 1.0");
  CHECK(lines[6] == "Auto-Submitted: auto-generated");
  CHECK(lines[7].starts_with("Content-Type: multipart/alternative; boundary=\"=_"));
  CHECK(count_starting(lines, "List-Unsubscribe") == 0);
  CHECK(message.find('\n') == message.find("\r\n") + 1);
  for (std::size_t i = 0; i < message.size(); ++i) {
    if (message[i] == '\n') REQUIRE(message[i - 1] == '\r');
  }
  CHECK(message.find("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable") <
        message.find("Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable"));
  // render is pure.
  CHECK(render(sample_mail()) == message);
  Mail other = sample_mail();
  other.message_id = "notice-13@play.example.org";
  CHECK(lines[7] != header_lines(render(other))[7]);
}

TEST_CASE("The Date header is the given second in UTC") {
  Mail mail = sample_mail();
  mail.date = 0;
  CHECK(header_lines(render(mail))[0] == "Date: Thu, 01 Jan 1970 00:00:00 +0000");
  mail.date = 951782400 + 86399;  // 2000-02-29 23:59:59
  CHECK(header_lines(render(mail))[0] == "Date: Tue, 29 Feb 2000 23:59:59 +0000");
}

TEST_CASE("Names in any language become encoded-words and plain names stay plain") {
  Mail mail = sample_mail();
  for (std::string name : {"Zażółć Gęślą Jaźń", "Árvíztűrő tükörfúrógép", "Größe Straße", "🎲 Würfel 🏰",
                           "Grzegorz Brzęczyszczykiewicz z Chrząszczyżewoszyc, powiat Łękołody"}) {
    mail.to.name = name;
    auto lines = header_lines(render(mail));
    INFO(lines[2]);
    CHECK(lines[2].starts_with("To: =?utf-8?B?"));
    CHECK(lines[2].ends_with(" <jan@example.org>"));
  }
  mail.to.name = "O'Brien \"The Castellan\", Jr.";
  CHECK(header_lines(render(mail))[2] == R"(To: "O'Brien \"The Castellan\", Jr." <jan@example.org>)");
  mail.to.name = "";
  CHECK(header_lines(render(mail))[2] == "To: jan@example.org");
}

TEST_CASE("Line breaks in a name or subject never make a header") {
  Mail mail = sample_mail();
  mail.to.name = "Eve\r\nBcc: victim@example.org";
  mail.from.name = "X\nCc: other@example.org\r\n";
  mail.subject = "Hello\r\nBcc: victim@example.org\r\n\r\nbody";
  std::string message = render(mail);
  auto lines = header_lines(message);
  CHECK(count_starting(lines, "Bcc") == 0);
  CHECK(count_starting(lines, "Cc") == 0);
  CHECK(count_starting(lines, "From:") == 1);
  CHECK(count_starting(lines, "To:") == 1);
  CHECK(count_starting(lines, "Subject:") == 1);
  for (const auto& line : all_lines(message)) {
    CHECK_FALSE(line.starts_with("Bcc"));
    CHECK_FALSE(line.starts_with("Cc"));
  }
}

TEST_CASE("Long subjects and names fold to 78 characters and no line passes 998") {
  Mail mail = sample_mail();
  mail.subject = "The tournament Spring Cup 2026 round 3 has been drawn and you play at table 7 against three others";
  mail.to.name = std::string(200, 'x') + " Łukasz";
  std::string message = render(mail);
  std::string head = message.substr(0, message.find("\r\n\r\n"));
  for (const auto& line : all_lines(head + "\r\n")) {
    INFO(line);
    CHECK(line.size() <= 78);
    for (char c : line) CHECK((c >= 0x20 && c < 0x7f));
  }
  auto lines = header_lines(message);
  CHECK(lines[3] == "Subject: " + mail.subject);
  for (const auto& line : all_lines(message)) CHECK(line.size() <= 998);
  mail.html = std::string(5000, 'a') + "\n" + std::string(3000, '\xc5');
  for (const auto& line : all_lines(render(mail))) CHECK(line.size() <= 76 + 2);
}

TEST_CASE("Subjects that are not plain ASCII words become encoded-words, at most 75 characters each") {
  Mail mail = sample_mail();
  mail.subject = std::string(100, 'y') + " 🏰 Kolej na Ciebie, Łukasz! Żółw " + std::string(60, '\xc4') + "=?x?=";
  for (const auto& line : header_lines(render(mail))) {
    if (!line.starts_with("Subject:")) continue;
    std::size_t at = 0;
    while ((at = line.find("=?utf-8?B?", at)) != std::string::npos) {
      std::size_t end = line.find("?=", at + 10);
      CHECK(end + 2 - at <= 75);
      at = end;
    }
  }
}

TEST_CASE("Bodies are quoted-printable that decodes to the text") {
  Mail mail = sample_mail();
  mail.text = "Zażółć = 100%\n. alone\nFrom here\ntrailing space \ntab\t\n" + std::string(200, 'z');
  std::string message = render(mail);
  CHECK(message.find("Za=C5=BC=C3=B3=C5=82=C4=87 =3D 100%\r\n=2E alone\r\n=46rom here\r\ntrailing space=20\r\ntab=09\r\n") !=
        std::string::npos);
  // Soft breaks: a 200-character line is cut into lines of at most 76 with a trailing '='.
  CHECK(message.find(std::string(75, 'z') + "=\r\n" + std::string(75, 'z') + "=\r\n" + std::string(50, 'z') + "\r\n") !=
        std::string::npos);
}

TEST_CASE("Render refuses bad addresses, message ids and unsubscribe links") {
  Mail mail = sample_mail();
  mail.to.address = "jan@example.org\r\nBcc: victim@example.org";
  CHECK_THROWS_AS(render(mail), std::invalid_argument);
  mail = sample_mail();
  mail.from.address = "notices";
  CHECK_THROWS_AS(render(mail), std::invalid_argument);
  for (std::string bad : std::vector<std::string>{"", "a b@c", "a>b@c", "<a@b>", "a@b\r\nBcc: x@y.org", "zé@x", std::string(901, 'a')}) {
    mail = sample_mail();
    mail.message_id = bad;
    CHECK_THROWS_AS(render(mail), std::invalid_argument);
    mail = sample_mail();
    mail.unsubscribe_url = bad;
    CHECK_THROWS_AS(render(mail), std::invalid_argument);
  }
  mail = sample_mail();
  mail.unsubscribe_url = "https://play.example.org/unsubscribe/12.digest.abc";
  auto lines = header_lines(render(mail));
  CHECK(count_starting(lines, "List-Unsubscribe: <https://play.example.org/unsubscribe/12.digest.abc>") == 1);
  CHECK(count_starting(lines, "List-Unsubscribe-Post: List-Unsubscribe=One-Click") == 1);
}

TEST_CASE("escape_html escapes the five characters that matter") {
  CHECK(escape_html("") == "");
  CHECK(escape_html("Tom & \"Jerry\" <b>'s</b>") == "Tom &amp; &quot;Jerry&quot; &lt;b&gt;&#39;s&lt;/b&gt;");
  CHECK(escape_html("Zażółć") == "Zażółć");
}
