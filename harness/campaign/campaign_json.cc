// SPDX-License-Identifier: GPL-2.0-only
// This file implements the campaign JSON through nlohmann-json
// (ordered_json: keys in the order written). 64-bit hashes are written as
// 16 hex digits (JSON numbers lose them in most readers).
#include "harness/campaign/campaign_json.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace squashlab {
namespace {

using nlohmann::ordered_json;

constexpr const char* kFormat = "squashlab-campaign-1";

std::string Hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t FromHex(const std::string& s) { return std::stoull(s, nullptr, 16); }

ordered_json ClassesJson(const std::vector<CampaignClass>& classes) {
  ordered_json out = ordered_json::array();
  for (const CampaignClass& k : classes)
    out.push_back({{"kind", k.kind},
                   {"title", k.title},
                   {"scenario", k.scenario},
                   {"token", k.token},
                   {"runs", k.runs},
                   {"scenario_index", k.scenario_index},
                   {"subtree", k.subtree},
                   {"run_in_subtree", k.run_in_subtree}});
  return out;
}

std::vector<CampaignClass> ParseClasses(const ordered_json& j) {
  std::vector<CampaignClass> out;
  for (const auto& k : j) {
    CampaignClass x;
    x.kind = k.at("kind").get<std::string>();
    x.title = k.at("title").get<std::string>();
    x.scenario = k.at("scenario").get<std::string>();
    x.token = k.at("token").get<std::string>();
    x.runs = k.at("runs").get<long>();
    x.scenario_index = k.at("scenario_index").get<long>();
    x.subtree = k.at("subtree").get<long>();
    x.run_in_subtree = k.at("run_in_subtree").get<long>();
    out.push_back(std::move(x));
  }
  return out;
}

template <typename Hashes>
ordered_json HashesJson(const Hashes& hashes) {
  ordered_json out = ordered_json::array();
  for (uint64_t h : hashes) out.push_back(Hex(h));
  return out;
}

ordered_json CursorJson(const CampaignCursor& c) {
  ordered_json stack = ordered_json::array();
  for (const ExhaustiveStrategy::Frame& f : c.position.stack)
    stack.push_back({{"order", f.order},
                     {"idx", f.idx},
                     {"current", f.current},
                     {"current_enabled", f.current_enabled},
                     {"preemptions_before", f.preemptions_before}});
  const ExhaustiveStrategy::Position& p = c.position;
  const CampaignTally& t = c.tally;
  return {{"subtree", c.subtree},
          {"run_in_subtree", c.run_in_subtree},
          {"position",
           {{"level", p.level},
            {"schedules", p.schedules},
            {"pruned", p.pruned},
            {"subtrees", p.subtrees},
            {"subtree", p.subtree},
            {"subtree_owned", p.subtree_owned},
            {"stack", std::move(stack)}}},
          {"tally",
           {{"runs", t.runs},
            {"pruned", t.pruned},
            {"failing", t.failing},
            {"schedule_digest", Hex(t.digest)},
            {"outcomes", HashesJson(t.outcomes)},
            {"classes", ClassesJson(t.classes)}}}};
}

CampaignCursor ParseCursor(const ordered_json& j) {
  CampaignCursor c;
  c.subtree = j.at("subtree").get<long>();
  c.run_in_subtree = j.at("run_in_subtree").get<long>();
  const ordered_json& p = j.at("position");
  c.position.level = p.at("level").get<int>();
  c.position.schedules = p.at("schedules").get<long>();
  c.position.pruned = p.at("pruned").get<long>();
  c.position.subtrees = p.at("subtrees").get<long>();
  c.position.subtree = p.at("subtree").get<long>();
  c.position.subtree_owned = p.at("subtree_owned").get<bool>();
  for (const auto& f : p.at("stack")) {
    ExhaustiveStrategy::Frame x;
    x.order = f.at("order").get<std::vector<int>>();
    x.idx = f.at("idx").get<size_t>();
    x.current = f.at("current").get<int>();
    x.current_enabled = f.at("current_enabled").get<bool>();
    x.preemptions_before = f.at("preemptions_before").get<int>();
    c.position.stack.push_back(std::move(x));
  }
  const ordered_json& t = j.at("tally");
  c.tally.runs = t.at("runs").get<long>();
  c.tally.pruned = t.at("pruned").get<long>();
  c.tally.failing = t.at("failing").get<long>();
  c.tally.digest = FromHex(t.at("schedule_digest").get<std::string>());
  for (const auto& o : t.at("outcomes")) c.tally.outcomes.push_back(FromHex(o));
  c.tally.classes = ParseClasses(t.at("classes"));
  return c;
}

ordered_json CellJson(const CampaignCell& c) {
  ordered_json classes = ClassesJson(c.classes);
  ordered_json searches = ordered_json::array();
  for (const CampaignSearch& s : c.searches)
    searches.push_back(
        {{"scenario", s.scenario},
         {"cut", s.cut},
         {"subtrees", s.subtrees},
         {"done", s.done},
         {"finished", s.finished},
         {"cursor", s.cursor ? CursorJson(*s.cursor) : ordered_json(nullptr)}});
  ordered_json outcomes = HashesJson(c.outcomes);
  return {{"variant", c.variant},
          {"decomp", c.decomp},
          {"runs", c.runs},
          {"pruned", c.pruned},
          {"complete", c.runs - c.pruned},
          {"failing", c.failing},
          {"finished", c.finished()},
          {"verdict", c.classes.empty() ? "clean" : "fail"},
          {"schedule_digest", Hex(c.digest)},
          {"seconds", c.seconds},
          {"outcomes", std::move(outcomes)},
          {"classes", std::move(classes)},
          {"searches", std::move(searches)}};
}

CampaignCell ParseCell(const ordered_json& j) {
  CampaignCell c;
  c.variant = j.at("variant").get<std::string>();
  c.decomp = j.at("decomp").get<std::string>();
  c.runs = j.at("runs").get<long>();
  c.pruned = j.at("pruned").get<long>();
  c.failing = j.at("failing").get<long>();
  c.digest = FromHex(j.at("schedule_digest").get<std::string>());
  c.seconds = j.at("seconds").get<double>();
  for (const auto& o : j.at("outcomes")) c.outcomes.insert(FromHex(o));
  c.classes = ParseClasses(j.at("classes"));
  for (const auto& s : j.at("searches")) {
    CampaignSearch x;
    x.scenario = s.at("scenario").get<std::string>();
    x.cut = s.at("cut").get<int>();
    x.subtrees = s.at("subtrees").get<long>();
    x.done = s.at("done").get<std::vector<long>>();
    x.finished = s.at("finished").get<bool>();
    if (!s.at("cursor").is_null()) x.cursor = ParseCursor(s.at("cursor"));
    c.searches.push_back(std::move(x));
  }
  return c;
}

}  // namespace

std::string CampaignJson(const CampaignResult& r) {
  ordered_json cells = ordered_json::array();
  for (const CampaignCell& c : r.cells) cells.push_back(CellJson(c));
  ordered_json j = {{"format", kFormat},
                    {"part", r.part},
                    {"parts", r.parts},
                    {"subtrees_per_part", r.subtrees_per_part},
                    {"strategy", "exhaustive"},
                    {"preemption_bound", r.preemption_bound},
                    {"por", r.por},
                    {"iterative", r.iterative},
                    {"seed", r.seed},
                    {"faults", r.faults},
                    {"device", r.device},
                    {"workloads", r.workloads},
                    {"kernels", r.kernels},
                    {"finished", r.finished()},
                    {"seconds", r.seconds},
                    {"cells", std::move(cells)}};
  return j.dump(2) + "\n";
}

StatusOr<CampaignResult> ParseCampaignJson(const std::string& text) {
  try {
    const ordered_json j = ordered_json::parse(text);
    if (j.at("format").get<std::string>() != kFormat)
      return Status::Corruption("not a squashlab campaign file");
    CampaignResult r;
    r.part = j.at("part").get<int>();
    r.parts = j.at("parts").get<int>();
    r.subtrees_per_part = j.at("subtrees_per_part").get<long>();
    r.preemption_bound = j.at("preemption_bound").get<int>();
    r.por = j.at("por").get<bool>();
    r.iterative = j.at("iterative").get<bool>();
    r.seed = j.at("seed").get<uint64_t>();
    r.faults = j.at("faults").get<std::string>();
    r.device = j.at("device").get<std::string>();
    r.workloads = j.at("workloads").get<std::vector<std::string>>();
    r.kernels = j.at("kernels").get<std::vector<std::string>>();
    r.seconds = j.at("seconds").get<double>();
    for (const auto& c : j.at("cells")) r.cells.push_back(ParseCell(c));
    return r;
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("campaign JSON: ") + e.what());
  }
}

Status WriteCampaignJson(const std::string& path, const CampaignResult& r) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << CampaignJson(r);
    out.flush();
    if (!out) return Status::IoError("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return Status::IoError("cannot rename " + tmp + " to " + path);
  return Status::Ok();
}

StatusOr<CampaignResult> ReadCampaignJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseCampaignJson(ss.str());
}

}  // namespace squashlab
