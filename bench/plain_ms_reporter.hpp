// SPDX-License-Identifier: Apache-2.0 OR MIT
// Google Benchmark's console prints every counter with SI suffixes (its human-readable numbers):
// a copy of 0.00125 ms read "upload_ms=1.24659m" and 1500 ms "1.5k". plain_ms_reporter prints
// the counters whose names end in "_ms" as plain milliseconds at the end of the line instead
// ("upload_ms=0.001247", where Google Benchmark's own counters end). It leaves the other
// counters, and the JSON and CSV formats (--benchmark_format, and --benchmark_out's file), as
// Google Benchmark prints them.
//
//   bench::plain_ms_reporter reporter;
//   benchmark::RunSpecifiedBenchmarks(&reporter);
#pragma once

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace bench {

// Milliseconds with at least four significant digits and no exponent: 0.001247, 0.5000, 1.247,
// 1247.310.
inline std::string plain_ms(double ms) {
  int decimals = 3;
  for (double v = std::fabs(ms); v > 0 && v < 1 && decimals < 6; v *= 10)
    ++decimals;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, ms);
  return text;
}

class plain_ms_reporter : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context &context) override { return display_->ReportContext(context); }

  void ReportRuns(const std::vector<Run> &runs) override {
    if (!dynamic_cast<benchmark::ConsoleReporter *>(display_.get())) {
      display_->ReportRuns(runs);
      return;
    }
    std::vector<Run> plain = runs;
    for (Run &run : plain)
      move_ms_to_label(run);
    display_->ReportRuns(plain);
  }

  void Finalize() override { display_->Finalize(); }

private:
  // "upload_ms" = 0.00124659 becomes "upload_ms=0.001247" in the label, after any label it had.
  static void move_ms_to_label(Run &run) {
    const std::string suffix = "_ms";
    for (auto counter = run.counters.begin(); counter != run.counters.end();) {
      const std::string &name = counter->first;
      if (name.size() <= suffix.size() ||
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        ++counter;
        continue;
      }
      run.report_label +=
          (run.report_label.empty() ? "" : " ") + name + "=" + plain_ms(counter->second.value);
      counter = run.counters.erase(counter);
    }
  }

  // The reporter Google Benchmark would have used: the console's, unless --benchmark_format
  // asks for JSON or CSV (read by benchmark::Initialize, so construct this after it).
  std::unique_ptr<benchmark::BenchmarkReporter> display_{benchmark::CreateDefaultDisplayReporter()};
};

} // namespace bench
