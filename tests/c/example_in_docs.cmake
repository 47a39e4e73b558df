# SPDX-License-Identifier: Apache-2.0 OR MIT
# docs/C_API.md shows examples/capi_example.c word for word, from the line after its license line.
# Usage: cmake -DDOC=docs/C_API.md -DEXAMPLE=examples/capi_example.c -P example_in_docs.cmake
file(READ ${DOC} doc)
file(READ ${EXAMPLE} example)
string(REGEX REPLACE "^/\\* SPDX-License-Identifier: [^\n]*\n" "" example "${example}")
string(FIND "${doc}" "```c\n${example}```" found)
if(found EQUAL -1)
  message(FATAL_ERROR "${DOC} does not show ${EXAMPLE} verbatim in a ```c block")
endif()
message(STATUS "ok: ${DOC} shows ${EXAMPLE} verbatim")
