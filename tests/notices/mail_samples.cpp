// Renders a set of mails into a directory, each as NN.eml with NN.json beside it saying what
// a reader should find: check_mails.py has Python's email package read them back.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "elgrande/notices/mail.hpp"

using namespace elgrande::notices;

namespace {

std::string spaced(std::string text) {
  for (char& c : text) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  return text;
}

std::vector<Mail> samples() {
  Mail base;
  base.from = {"El Grande", "notices@play.example.org"};
  base.to = {"Jan Kowalski", "jan@example.org"};
  base.subject = "Your turn at table 12";
  base.text = "It is your turn.\nhttps://play.example.org/t/12\n";
  base.html = "<p>It is your turn.</p>\n";
  base.message_id = "notice-1@play.example.org";
  base.date = 1767225600;

  std::vector<Mail> mails;
  auto add = [&](auto change) {
    Mail mail = base;
    change(mail);
    mail.message_id = "notice-" + std::to_string(mails.size() + 1) + ".k3j@play.example.org";
    mails.push_back(mail);
  };
  add([](Mail&) {});
  add([](Mail& m) {
    m.to.name = "Zażółć Gęślą Jaźń";
    m.subject = "Kolej na Ciebie: stół „Kastylia” czeka";
    m.text = "Cześć Łukasz,\n\nTwoja kolej. Żółw = 100% ślimak.\n";
    m.html = "<p>Cześć <b>Łukasz</b> &amp; spółka</p>";
    m.unsubscribe_url = "https://play.example.org/unsubscribe/12.turn_reminder.AAAAAAAAAAAAAAAAAAAAAA";
  });
  add([](Mail& m) {
    m.from.name = "Árvíztűrő tükörfúrógép";
    m.to.name = "Größe Straße Müller";
    m.subject = "Ütközet: die Würfel sind gefallen — ő és ű";
  });
  add([](Mail& m) {
    m.to.name = "🎲 Würfel 🏰 castle builder";
    m.subject = "🏰🏰🏰 " + std::string(30, 'x') + " 🎲🎲🎲 emoji and long words";
    m.text = "emoji 🎲\nno final newline";
  });
  add([](Mail& m) {
    m.to.name = "Eve\r\nBcc: victim@example.org";
    m.from.name = "X\nCc: other@example.org";
    m.subject = "Hello\r\nBcc: victim@example.org\r\n\r\ninjected body";
  });
  add([](Mail& m) {
    m.to.name = "O'Brien \"The Castellan\", Jr.";
    m.from.name = "";
    m.subject = "The tournament Spring Cup 2026 round 3 has been drawn and you play at table 7 against three others "
                "who have all won their previous rounds";
  });
  add([](Mail& m) {
    m.to.name = std::string(150, 'x') + " Łukasz ";
    for (int i = 0; i < 100; ++i) m.to.name += "Ł";
    m.subject = "  leading and trailing spaces, =?utf-8?q?not_an_encoded_word?= and\ttab  ";
    m.text = ". alone\nFrom the start\ntrailing space \ntab\t\n" + std::string(300, 'z') + "\n\n\n";
    m.html = std::string(5000, 'a') + "\n<p>" + std::string(1000, '=') + "</p>";
    m.unsubscribe_url = "https://play.example.org/u?t=1.digest.x&y=%20";
  });
  add([](Mail& m) {
    m.subject = "";
    m.text = "";
    m.html = "";
    m.to.name = "a";
  });
  return mails;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mail_samples DIRECTORY\n";
    return 2;
  }
  std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  int n = 0;
  for (const Mail& mail : samples()) {
    char name[16];
    std::snprintf(name, sizeof name, "%02d", ++n);
    std::ofstream(dir / (std::string(name) + ".eml"), std::ios::binary) << render(mail);
    nlohmann::json expected = {
        {"from_name", spaced(mail.from.name)}, {"from_address", mail.from.address},
        {"to_name", spaced(mail.to.name)},     {"to_address", mail.to.address},
        {"subject", spaced(mail.subject)},     {"text", mail.text},
        {"html", mail.html},                   {"message_id", mail.message_id},
        {"unsubscribe_url", mail.unsubscribe_url ? nlohmann::json(*mail.unsubscribe_url) : nlohmann::json()},
    };
    std::ofstream(dir / (std::string(name) + ".json")) << expected.dump(2) << "\n";
  }
  std::cout << n << " mails in " << dir.string() << "\n";
}
