// SPDX-License-Identifier: Apache-2.0 OR MIT
module merklize

go 1.19
