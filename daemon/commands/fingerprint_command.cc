#include "commands/fingerprint_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "cli/command.h"
#include "common/hex.h"

namespace pagesieve::commands {
namespace {

struct FingerprintFlags {
  cli::ConfigFlags config;
  std::string url;
  std::string content_type;
  std::string file = "-";
  std::string input;
};

StatusOr<std::string> ReadAll(const std::string& path) {
  if (path == "-") {
    std::ostringstream buffer;
    buffer << std::cin.rdbuf();
    return buffer.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::IoError("cannot open " + path);
  std::string data((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return Status::IoError("cannot read " + path);
  return data;
}

int RunOnePage(const FingerprintFlags& flags, fingerprint::Fingerprinter& fingerprinter) {
  StatusOr<std::string> body = ReadAll(flags.file);
  if (!body.ok()) {
    cli::PrintError(body.status());
    return cli::kExitFailure;
  }
  fingerprint::PageInput page{flags.url, flags.content_type, *body, std::nullopt};
  StatusOr<fingerprint::PageFingerprint> fp = fingerprinter.Fingerprint(page);
  if (!fp.ok()) {
    cli::PrintError(fp.status().WithContext("--url"));
    return cli::kExitUsage;
  }
  std::cout << DumpJson(FingerprintToJson(flags.url, *fp)) << '\n';
  return cli::kExitOk;
}

int RunEvents(const FingerprintFlags& flags, const Config& config,
              fingerprint::Fingerprinter& fingerprinter) {
  StatusOr<engine::EventFieldNames> fields = engine::EventFieldNamesFromConfig(config);
  if (!fields.ok()) {
    cli::PrintError(fields.status());
    return cli::kExitUsage;
  }
  std::ifstream file;
  if (flags.input != "-") {
    file.open(flags.input, std::ios::binary);
    if (!file) {
      cli::PrintError(Status::IoError("cannot open " + flags.input));
      return cli::kExitFailure;
    }
  }
  std::istream& in = flags.input == "-" ? std::cin : file;
  size_t errors = FingerprintEvents(fingerprinter, *fields, in, std::cout);
  std::cout.flush();
  if (errors == 0) return cli::kExitOk;
  cli::PrintError(Status::InvalidArgument(std::to_string(errors) + " line(s) of " + flags.input +
                                          " could not be fingerprinted (see their \"error\")"));
  return cli::kExitFailure;
}

int Run(const FingerprintFlags& flags) {
  StatusOr<Config> config = flags.config.Load();
  if (!config.ok()) {
    cli::PrintError(config.status());
    return cli::kExitUsage;
  }
  StatusOr<fingerprint::FingerprintOptions> options =
      fingerprint::FingerprintOptionsFromConfig(*config);
  if (!options.ok()) {
    cli::PrintError(options.status());
    return cli::kExitUsage;
  }
  fingerprint::Fingerprinter fingerprinter(std::move(*options));
  if (!flags.input.empty()) return RunEvents(flags, *config, fingerprinter);
  return RunOnePage(flags, fingerprinter);
}

nlohmann::json ErrorLine(size_t line, const Status& status) {
  return {{"line", line}, {"error", status.message()}};
}

}  // namespace

nlohmann::json FingerprintToJson(std::string_view given_url,
                                 const fingerprint::PageFingerprint& fp) {
  nlohmann::json fingerprints = {
      {"url", fp.url.Hex()},
      {"content", fp.content.Hex()},
      {"payload", fp.payload},
      {"simhash", fp.simhash ? nlohmann::json(Hex64(*fp.simhash)) : nlohmann::json()},
      // The encoded sketch in hex, so two pages' similarity can be checked
      // by hand (docs/fingerprints.md, "MinHash").
      {"minhash", fp.minhash ? nlohmann::json(HexBytes(fp.minhash->Encode())) : nlohmann::json()},
  };
  return {{"url", given_url},
          {"canonical_url", fp.canonical_url.spec},
          {"title", fp.title},
          {"text", fp.text},
          {"tokens", fp.tokens},
          {"truncated", fp.truncated},
          {"fingerprints", fingerprints}};
}

size_t FingerprintEvents(fingerprint::Fingerprinter& fingerprinter,
                         const engine::EventFieldNames& fields, std::istream& in,
                         std::ostream& out) {
  size_t errors = 0;
  size_t number = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    StatusOr<engine::FetchedEvent> event = engine::ParseFetchedEvent(line, fields);
    if (!event.ok()) {
      ++errors;
      out << DumpJson(ErrorLine(number, event.status())) << '\n';
      continue;
    }
    fingerprint::PageInput page{event->url, event->content_type, event->body, std::nullopt};
    if (event->text) page.text = *event->text;
    StatusOr<fingerprint::PageFingerprint> fp = fingerprinter.Fingerprint(page);
    if (!fp.ok()) {
      ++errors;
      out << DumpJson(ErrorLine(number, fp.status().WithContext("url"))) << '\n';
      continue;
    }
    nlohmann::json json = FingerprintToJson(event->url, *fp);
    if (!event->event_id.empty()) json["event_id"] = event->event_id;
    out << DumpJson(json) << '\n';
  }
  return errors;
}

std::string DumpJson(const nlohmann::json& json) {
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Command RegisterFingerprintCommand(CLI::App& app) {
  auto flags = std::make_shared<FingerprintFlags>();
  CLI::App* sub = app.add_subcommand(
      "fingerprint", "Print the fingerprints of one page (or of every event of a JSONL file)");
  flags->config.AddTo(*sub);
  CLI::Option* url = sub->add_option("--url", flags->url, "The page's URL");
  sub->add_option("--content-type", flags->content_type,
                  "The page's Content-Type (default: sniffed from the body)");
  CLI::Option* file =
      sub->add_option("file", flags->file, "The page's body (default -: standard input)");
  CLI::Option* input = sub->add_option(
      "--input", flags->input, "A JSONL file of fetched-page events (- for standard input)");
  input->excludes(url)->excludes(file);
  return Command{
      sub, [flags, url, input]() {
        if (url->count() == 0 && input->count() == 0) {
          cli::PrintError(Status::InvalidArgument("give --url URL [FILE] or --input FILE"));
          return cli::kExitUsage;
        }
        return Run(*flags);
      }};
}

}  // namespace pagesieve::commands
