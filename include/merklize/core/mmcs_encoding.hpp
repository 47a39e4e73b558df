// SPDX-License-Identifier: Apache-2.0 OR MIT
// An MMCS opening (mmcs.hpp) as a line of JSON, as `merklize open` prints it and `merklize
// verify-opening` reads it: {"index": I, "rows": [[E, ...], ...], "path": ["HEX", ...]}, the
// rows' elements as decimal integers (a Goldilocks element needs 64 bits: no JSON double holds
// it), the path's digests as 64 hex digits. Read strictly (core/json.hpp): each member once, no
// others, errors naming the member. No OpenCL.
#pragma once

#include "json.hpp"
#include "mmcs.hpp"

#include <string>
#include <string_view>

namespace merklize {
namespace mmcs {

struct indexed_opening {
  std::uint64_t index = 0;
  opening proof;
};

inline std::string to_json(std::uint64_t index, const opening &o) {
  std::string out = "{\"index\": " + std::to_string(index) + ", \"rows\": [";
  for (std::size_t m = 0; m < o.rows.size(); ++m) {
    out += m ? ", [" : "[";
    for (std::size_t c = 0; c < o.rows[m].size(); ++c)
      out += (c ? ", " : "") + std::to_string(o.rows[m][c]);
    out += "]";
  }
  out += "], \"path\": [";
  for (std::size_t k = 0; k < o.path.size(); ++k)
    out += (k ? ", \"" : "\"") + to_hex(o.path[k]) + "\"";
  return out + "]}";
}

inline indexed_opening opening_from_json(std::string_view text) {
  namespace json = merklize::detail::json;
  json::reader r(text);
  json::expect_kind(r, json::kind::object, json::place{"opening", {}}, "an object");
  indexed_opening out;
  bool index = false, rows = false, path = false;
  r.begin_object();
  for (std::string key; r.next_key(key);) {
    const bool known = key == "index" || key == "rows" || key == "path";
    bool &seen = key == "index" ? index : key == "rows" ? rows : path;
    if (!known || seen)
      throw error("an opening has \"index\", \"rows\" and \"path\" once each, not " +
                  detail::quoted(key) + (known ? " twice" : ""));
    seen = true;
    if (key == "index") {
      out.index = json::read_u64(r, json::place{"index", {}});
    } else if (key == "rows") {
      out.proof.rows = json::read_array(r, "rows", 2, [](json::reader &in, const json::place &) {
        return json::read_array(in, "rows", 1, json::read_u64);
      });
    } else {
      out.proof.path = json::read_array(r, "path", 66, [](json::reader &in, const json::place &p) {
        return digest_from_hex(json::read_string(in, p));
      });
    }
  }
  r.finish();
  if (!index || !rows || !path)
    throw error("an opening has \"index\", \"rows\" and \"path\"; this one lacks " +
                std::string(!index  ? "\"index\""
                            : !rows ? "\"rows\""
                                    : "\"path\""));
  return out;
}

} // namespace mmcs
} // namespace merklize
