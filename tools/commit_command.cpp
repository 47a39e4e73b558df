// SPDX-License-Identifier: Apache-2.0 OR MIT
// merklize commit and open: the cap of Plonky3's MerkleTreeMmcs over the MATRIX files, committed
// on the device (engine/mmcs.hpp), and openings of row indices. Each file is a row-major matrix
// of canonical little-endian field elements (4 bytes for BabyBear and KoalaBear, 8 for
// Goldilocks), --width elements a row; its height is the file's size over the row's. The cap's
// digests print one per line, the hex of their 32 bytes (the root alone at --cap-height 0); an
// opening prints as a line of JSON.
#include "cli.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "output.hpp"
#include "quote.hpp"

#include <merklize/core/hashes.hpp>
#include <merklize/core/mmcs_encoding.hpp>
#include <merklize/engine/mmcs.hpp>
#include <merklize/runtime/runtime.hpp>

#include <algorithm>

namespace cli {
namespace {

// The Poseidon2 instance of Plonky3's MMCS configuration for `hash` (its row of core/hashes.hpp);
// other hashes are refused.
const merklize::poseidon2::instance &mmcs_instance(merklize::hash_kind hash) {
  if (const merklize::poseidon2::instance *in = merklize::mmcs_instance_of(hash)) return *in;
  throw usage_error("--hash " + merklize::mmcs_refusal(hash) + ": merklize commit takes " +
                        merklize::mmcs_hash_names(),
                    "Try 'merklize commit --help' for the options.");
}

// The widths of `count` matrices (`what`), --width given once for all or once each.
std::vector<std::uint64_t> widths_of(const std::vector<std::uint64_t> &widths, std::size_t count,
                                     const std::string &what, const std::string &command) {
  if (widths.size() != 1 && widths.size() != count)
    throw usage_error("--width is given " + std::to_string(widths.size()) + " times for " +
                          std::to_string(count) + " " + what +
                          ": give it once for all, or once for each",
                      "Try 'merklize " + command + " --help' for the options.");
  for (const std::uint64_t w : widths)
    if (w == 0) throw usage_error("--width takes a positive number of elements a row, not 0");
  if (widths.size() == 1) return std::vector<std::uint64_t>(count, widths[0]);
  return widths;
}

// "MATRIX 0 is a.bin, MATRIX 1 is b.bin": the files the core's "matrix N" means.
std::string matrix_names(const std::vector<std::string> &files) {
  std::string out;
  for (std::size_t m = 0; m < files.size(); ++m)
    out += (m ? ", " : "") + std::string("matrix ") + std::to_string(m) + " is " +
           quote(files[m], 256);
  return out;
}

// The non-empty lines of a file (stdin for "-"), at most `most` of them and each within a JSON
// text's limit, refused if there are none: the file is read line by line and refused at once
// past either bound.
std::vector<std::string> lines_of(const std::string &path, const char *what, std::size_t most) {
  const std::string name = path == "-" ? std::string("stdin") : quote(path, 256);
  std::vector<std::string> lines;
  for_each_line(path, json_proof_limit, [&](const std::string &line) {
    if (lines.size() == most)
      throw merklize::error(std::string(what) + " " + name + " has more than " +
                            std::to_string(most) + " lines: refused before reading on");
    lines.push_back(line);
  });
  if (lines.empty()) throw merklize::error(std::string(what) + " " + name + " is empty");
  return lines;
}

// Warns on stderr of each matrix that enters above the cap's layer, which the cap does not bind
// (mmcs::unbound_matrices). Heights Plonky3 refuses are left to the commitment's or the
// opening's check, which names them.
void warn_unbound_matrices(const std::vector<std::size_t> &heights, unsigned cap_height) {
  std::vector<std::size_t> unbound;
  try {
    unbound = merklize::mmcs::unbound_matrices(heights, cap_height);
  } catch (const merklize::error &) {
    return;
  }
  const std::size_t smallest = *std::min_element(heights.begin(), heights.end());
  for (const std::size_t m : unbound)
    print_error("merklize",
                "warning: matrix " + std::to_string(m) + " (" + std::to_string(heights[m]) +
                    " rows) enters above the cap's layer: the cap does not commit to it and an "
                    "opening's rows of it are not checked, as in Plonky3's verify_batch; a "
                    "--cap-height of at most " +
                    std::to_string(merklize::mmcs::ceil_log2(smallest)) + " binds every matrix");
}

std::vector<std::size_t> heights_of(const std::vector<merklize::mmcs::dimensions> &dims) {
  std::vector<std::size_t> heights;
  for (const auto &d : dims)
    heights.push_back(d.height);
  return heights;
}

// The most CAP lines a commitment of these shapes has; heights Plonky3 refuses bound it by one
// line, the opening's check then naming them.
std::size_t cap_bound(const std::vector<merklize::mmcs::dimensions> &dims, unsigned cap_height) {
  try {
    return merklize::mmcs::cap_length(merklize::mmcs::tallest_height(heights_of(dims)), cap_height);
  } catch (const merklize::error &) {
    return 1;
  }
}

// The MATRIX files read, each a whole number of rows (before the device is opened).
struct matrix_files {
  std::vector<std::vector<std::uint8_t>> data;
  std::vector<merklize::mmcs::matrix_view> views;
};

matrix_files read_matrices(const commit_arguments &args, const merklize::poseidon2::instance &in) {
  const std::vector<std::uint64_t> widths =
      widths_of(args.widths, args.files.size(), "MATRIX files", "commit");
  const std::uint64_t element = merklize::poseidon2::limb_bytes(in);
  matrix_files out;
  for (std::size_t m = 0; m < args.files.size(); ++m) {
    out.data.push_back(read_input(args.files[m], false));
    const std::uint64_t row = widths[m] * element;
    if (out.data[m].size() % row != 0)
      throw merklize::error((args.files[m] == "-" ? "stdin" : quote(args.files[m], 256)) +
                            " holds " + std::to_string(out.data[m].size()) +
                            " bytes, not a whole number of rows of " + std::to_string(widths[m]) +
                            " " + in.field_name + " elements (" + std::to_string(row) +
                            " bytes a row)");
    out.views.push_back({out.data[m].data(), out.data[m].size() / row, widths[m]});
  }
  return out;
}

merklize::mmcs::device_commitment commit_of(const commit_arguments &args,
                                            const matrix_files &matrices,
                                            const merklize::poseidon2::instance &in,
                                            bool all_layers, unsigned dropped = 0) {
  std::vector<std::size_t> heights;
  for (const auto &m : matrices.views)
    heights.push_back(m.height);
  warn_unbound_matrices(heights, args.cap_height);
  const cl::Device device = chosen_device(args.device);
  const cl::CommandQueue queue = merklize::device_queue(device);
  // Shapes and elements are checked by commit_on (the elements where the device reads them: a
  // host scan cost more than the commitment); its refusals name the files too.
  try {
    return merklize::mmcs::commit_on(queue, matrices.views, in, args.cap_height, all_layers,
                                     dropped);
  } catch (const merklize::error &e) {
    throw merklize::error(std::string(e.what()) + " (" + matrix_names(args.files) + ")");
  }
}

} // namespace

int commit_command(const commit_arguments &args) {
  const merklize::poseidon2::instance &in = mmcs_instance(args.hash);
  const matrix_files matrices = read_matrices(args, in);
  std::string out;
  for (const merklize::digest &d : commit_of(args, matrices, in, false).cap)
    out += merklize::to_hex(d) + "\n";
  write_stdout(out);
  return 0;
}

int open_command(const open_arguments &args) {
  const merklize::poseidon2::instance &in = mmcs_instance(args.hash);
  const matrix_files matrices = read_matrices(args, in);
  std::size_t tallest = 0;
  for (const auto &m : matrices.views)
    tallest = std::max(tallest, m.height);
  for (const std::uint64_t index : args.indices)
    if (index >= tallest)
      throw merklize::error("-i " + std::to_string(index) + " is out of range: the tallest " +
                            "MATRIX has " + std::to_string(tallest) + " rows");
  const auto commitment = commit_of(args, matrices, in, true, args.drop_layers);
  std::string out;
  for (const std::uint64_t index : args.indices)
    out += merklize::mmcs::to_json(index, merklize::mmcs::open_at(matrices.views, commitment.layers,
                                                                  args.cap_height, index, in,
                                                                  commitment.dropped)) +
           "\n";
  write_stdout(out);
  return 0;
}

int verify_opening_command(const verify_opening_arguments &args) {
  const merklize::poseidon2::instance &in = mmcs_instance(args.hash);
  const std::vector<std::uint64_t> widths =
      widths_of(args.widths, args.heights.size(), "matrices (--height)", "verify-opening");
  std::vector<merklize::mmcs::dimensions> dims;
  for (std::size_t m = 0; m < widths.size(); ++m)
    dims.push_back({args.heights[m], widths[m]});
  std::vector<merklize::digest> cap;
  for (const std::string &line : lines_of(args.cap, "CAP", cap_bound(dims, args.cap_height)))
    cap.push_back(digest_operand("a CAP line", line));
  warn_unbound_matrices(heights_of(dims), args.cap_height);
  std::size_t count = 0;
  // One opening at a time, as read: OPENINGS may be an endless pipe.
  for_each_line(args.openings, json_proof_limit, [&](const std::string &line) {
    merklize::mmcs::indexed_opening o;
    try {
      o = merklize::mmcs::opening_from_json(line);
    } catch (const merklize::error &e) {
      throw merklize::error("OPENINGS, opening " + std::to_string(count) + ": " + e.what());
    }
    const std::string refusal =
        merklize::mmcs::verify_refusal(cap, args.cap_height, dims, o.index, o.proof, in);
    if (!refusal.empty())
      throw merklize::error("invalid opening of row " + std::to_string(o.index) + ": " + refusal);
    ++count;
  });
  if (count == 0)
    throw merklize::error(
        "OPENINGS " + (args.openings == "-" ? std::string("stdin") : quote(args.openings, 256)) +
        " is empty");
  write_stdout("valid: " + std::to_string(count) + (count == 1 ? " opening\n" : " openings\n"));
  return 0;
}

} // namespace cli
