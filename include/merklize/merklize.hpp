// merklize: Merkle trees on any OpenCL device. Include this header for the whole library.
#pragma once

#include "blake3.hpp"
#include "device.hpp"
#include "digest.hpp"
#include "error.hpp"
#include "hash.hpp"
#include "layer.hpp"
#include "merkleizer.hpp"
#include "multi.hpp"
#include "programs.hpp"
#include "proof.hpp"
#include "proof_device.hpp"
#include "reference.hpp"
#include "sha256.hpp"
#include "tree.hpp"
#include "version.hpp"
