// SPDX-License-Identifier: Apache-2.0 OR MIT
// Poseidon2 over BN254's scalar field Fr, width 3 (HorizenLabs' reference instance):
// canonical values as 4 little-endian u64 limbs, written by
// tools/poseidon2_constants.py from the copied data of
// tests/vectors/commitments/poseidon2/bn254_w3.json, from
//  HorizenLabs/poseidon2 @ 055bde3f4782731ba5f5ce5888a440a94327eaf3 (2024-11-25),
//  plain_implementations/src/poseidon2/poseidon2_instance_bn256.rs
// Do not edit: rerun the script (ctest poseidon2_constants_current checks it).
#pragma once

#include <array>
#include <cstdint>

namespace merklize {
namespace poseidon2 {
namespace constants {

using bn254_limbs = std::array<std::uint64_t, 4>;

// clang-format off
inline constexpr bn254_limbs bn254_prime = {0x43e1f593f0000001u, 0x2833e84879b97091u, 0xb85045b68181585du, 0x30644e72e131a029u};
inline constexpr unsigned bn254_w3_rounds_p = 56;
inline constexpr bn254_limbs bn254_w3_external_initial[12] = {
    {0x59a09a1a97052816u, 0x7f8fcde48bb4c37au, 0x8bddd3a93f7804efu, 0x1d066a255517b7fdu},
    {0xb7238547d32c1610u, 0xb7c6fef31367b68eu, 0xac3f089cebcc6120u, 0x29daefb55f6f2dc6u},
    {0x9e8b7ad7b0b4e1d1u, 0x2572d76f08ec5c4fu, 0x1ecbd88ad959d701u, 0x1f2cb1624a78ee00u},
    {0xdb0672ded84f31e5u, 0xb11f092a53bbc6e1u, 0xbd77c0ed3d14aa27u, 0x0aad2e79f15735f2u},
    {0x091ccf1595b43f28u, 0x37028a98f1dece66u, 0xd6f661dd4094375fu, 0x2252624f8617738cu},
    {0xd49f4f2c9018d735u, 0x91c20626524b2b87u, 0x5a65a84a291da1ffu, 0x1a24913a928b3848u},
    {0x4fd6dae1508fc47au, 0x0a41515ddff497b1u, 0x7bfc427b5f11ebb1u, 0x22fc468f1759b74du},
    {0xefd65515617f6e4du, 0xe61956ff0b4121d5u, 0x9cd026e9c9ca107au, 0x1059ca787f1f89edu},
    {0xa45cbbfae8b981ceu, 0x2123011f0bf6f155u, 0xf61f3536d877de98u, 0x02be9473358461d8u},
    {0xa1ff3a441a5084a4u, 0xaba9b669ac5b8736u, 0x2778a749c82ed623u, 0x0ec96c8e32962d46u},
    {0x48fb2e4d814df57eu, 0x5a47a7cdb8c99f96u, 0x5442d9553c45fa3fu, 0x292f906e07367740u},
    {0x0c63f0b2ffe5657eu, 0xcc611160a394ea46u, 0x26c11b9a0f5e39a5u, 0x274982444157b867u},
};
inline constexpr bn254_limbs bn254_w3_internal[56] = {
    {0x499573f23597d4b5u, 0xcedd192f47308731u, 0xb63e1855bff015b8u, 0x1a1d063e54b1e764u},
    {0xb91b002c5b257c37u, 0x08235dccc1aa3793u, 0x839d109562590637u, 0x26abc66f3fdf8e68u},
    {0x0b3c2b12ff4d7be8u, 0x0754427aabca92a7u, 0x81a578cfed5aed37u, 0x0c7c64a9d8873853u},
    {0xedd383831354b495u, 0xba2ebac30dc386b0u, 0x9e17f0b6d08b2d1eu, 0x1cf5998769e9fab7u},
    {0x7aba0b97e66b0109u, 0x19828764a9669bc1u, 0x564ca60461e9e08bu, 0x0f5e3a8566be31b7u},
    {0x42bf3d7a531c976eu, 0xf359a53a180b7d4bu, 0x95e60e4db0794a01u, 0x18df6a9d19ea90d8u},
    {0x4e324055fa3123dcu, 0xd0ea1d3a3b9d25efu, 0x6e4b782c3c6e601au, 0x04f7bf2c5c0538acu},
    {0xe55d54628b89ebe6u, 0xe770c0584aa2328cu, 0x3c40058523748531u, 0x29c76ce22255206eu},
    {0x00e0e945dbc5ff15u, 0x65b1b8e9c6108dbeu, 0xc053659ab4347f5du, 0x198d425a45b78e85u},
    {0x49d3a9a90c3fdf74u, 0xa7ff7f6878b3c49du, 0x6af3cc79c598a1dau, 0x25ee27ab6296cd5eu},
    {0xc0f88687a96d1381u, 0x05845d7d0c55b1b2u, 0x24561001c0b6eb15u, 0x138ea8e0af41a1e0u},
    {0x4013370a01d95687u, 0x42851b5b9811f2cau, 0xf6e7c2cba2eefd0eu, 0x306197fb3fab671eu},
    {0x86419eaf00e8f620u, 0x21db7565e5b42504u, 0x2b66f0b4894d4f1au, 0x1a0c7d52dc32a443u},
    {0xaa52997da2c54a9fu, 0xebfbe5f55163cd6cu, 0x3ff86a8e5c8bdfccu, 0x2b46b418de80915fu},
    {0xfb46e312b5829f64u, 0x613a1af5db48e05bu, 0x01f8b777b9673af9u, 0x12d3e0dc00858737u},
    {0xba338a5cb19b3a1fu, 0xfb2bf768230f648du, 0x70f5002ed21d089fu, 0x263390cf74dc3a88u},
    {0x7d543db52b003dcdu, 0xf8abb5af40f96f1du, 0x0ac884b4ca607ad0u, 0x0a14f33a5fe668a6u},
    {0xd847df829bc683b9u, 0x27be3a4f01171a1du, 0x1a5e86509d68b2dau, 0x28ead9c586513eabu},
    {0xea16cda6e1a7416cu, 0x888f0ea1abe71cffu, 0x0972031f1bdb2ac9u, 0x1c6ab1c328c3c643u},
    {0x32346015c5b42c94u, 0x4f6decd608cb98a9u, 0x2b2500239f7f8de0u, 0x1fc7e71bc0b81979u},
    {0xe6dd85b93a0ddaa8u, 0xc0c1e197c952650eu, 0xe380e0d860298f17u, 0x03e107eb3a42b2ecu},
    {0x454505f6941d78cdu, 0x46452ca57c08697fu, 0x69c0d52bf88b772cu, 0x2d354a251f381a46u},
    {0xd14b4606826f794bu, 0x522551d61606eda3u, 0xf687ef14bc566d1cu, 0x094af88ab05d94bau},
    {0xd52b2d249d1396f7u, 0xe1ab5b6f2e3195a9u, 0x19bcaeabf02f8ca5u, 0x19705b783bf3d2dcu},
    {0x60cef6852271200eu, 0x8723b16b7d740a3eu, 0x1fcc33fee54fc5b2u, 0x09bf4acc3a8bce3fu},
    {0x543a073f3f3b5e4eu, 0x3413732f301f7058u, 0x50f83c0c8fab6284u, 0x1803f8200db6013cu},
    {0xd41f7fef2faf3e5cu, 0xbf6fb02d4454c0adu, 0x30595b160b8d1f38u, 0x0f80afb5046244deu},
    {0x7dc3f98219529d78u, 0xabcfcf643f4a6feau, 0xd77f0088c1cfc964u, 0x126ee1f8504f15c3u},
    {0xef86f991d7d0a591u, 0x0ffb4ee63175ddf8u, 0x69bfb3d919552ca1u, 0x23c203d10cfcc60fu},
    {0x7c5a339f7744fb94u, 0x3dec1ee4eec2cf74u, 0xec0d09705fa3a630u, 0x2a2ae15d8b143709u},
    {0xb6b5d89081970b2bu, 0xc3d3b3006cb461bbu, 0x47e5c381ab6343ecu, 0x07b60dee586ed6efu},
    {0x132cfe583c9311bdu, 0x8a98a320baa7d152u, 0x885d95c494c1ae3du, 0x27316b559be3edfdu},
    {0x2f5f9af0c0342e76u, 0xef834cc2a743ed66u, 0xd8937cb2d3f84311u, 0x1d5c49ba157c32b8u},
    {0x7c24bd5940968488u, 0x09c01bf6979938f6u, 0x332774e0b850b5ecu, 0x2f8b124e78163b2fu},
    {0x665f75260113b3d5u, 0x1d4cba6554e51d84u, 0xdc5b7aa09a9ce21bu, 0x1e6843a5457416b6u},
    {0x1f5bc79f21641d4bu, 0xa68daf9ac6a189abu, 0x5fca25c9929c8ad9u, 0x11cdf00a35f650c5u},
    {0xe82b5b9b7eb560bcu, 0x608b2815c77355b7u, 0x2ef36e588158d6d4u, 0x21632de3d3bbc5e4u},
    {0x49d7b5c51c18498au, 0x255ae48ef2a329e4u, 0x97b27025fbd245e0u, 0x0de625758452efbdu},
    {0x9b09546ba0838098u, 0xdd9e1e1c6f0fb6b0u, 0xe2febfd4d976cc01u, 0x2ad253c053e75213u},
    {0xd35702e38d60b077u, 0x3dd49cdd13c813b7u, 0x6ec7681ec39b3be9u, 0x1d6b169ed63872dcu},
    {0xc3a54e706cfef7feu, 0x0be3ea70a24d5568u, 0xb9127c4941b67fedu, 0x1660b740a143664bu},
    {0x96a29f10376ccbfeu, 0xceacdddb12cf8790u, 0x114f4ca2deef76e0u, 0x0065a92d1de81f34u},
    {0xcf30d50a5871040du, 0x353ebe2ccbc4869bu, 0x7367f823da7d672cu, 0x1f11f06520253598u},
    {0x110852d17df0693eu, 0x3bd1d1a39b6759bau, 0xb437ce7b14a2c3ddu, 0x26596f5c5dd5a5d1u},
    {0x6743db15af91860fu, 0x8539c4163a5f1e70u, 0x7bf3056efcf8b6d3u, 0x16f49bc727e45a2fu},
    {0xe1a4e7438dd39e5fu, 0x568feaf7ea8b3dc5u, 0x9954175efb331bf4u, 0x1abe1deb45b3e311u},
    {0x020d34aea15fba59u, 0x9f5db92aaec5f102u, 0xd8993a74ca548b77u, 0x0e426ccab66984d1u},
    {0xa841924303f6a6c6u, 0x0071684b902d534fu, 0x4933bd1942053f1fu, 0x0e7c30c2e2e8957fu},
    {0x4c76e1f31d3fc69du, 0x6166ded6e3528eadu, 0x1622708fc7edff1du, 0x0812a017ca92cf0au},
    {0x2e276b47cf010d54u, 0x68afe5026edd7a9cu, 0xbba949d1db960400u, 0x21a5ade3df2bc1b5u},
    {0x72b1a5233f8749ceu, 0xbd101945f50e5afeu, 0xad711bf1a058c6c6u, 0x01f3035463816c84u},
    {0x4dcaa82b0f0c1c8bu, 0x8bf2f9398dbd0fdfu, 0x028c2aafc2d06a5eu, 0x0b115572f038c0e2u},
    {0x3460613b6ef59e2fu, 0x27fc24db42bc910au, 0xf0ef255543f50d2eu, 0x1c38ec0b99b62fd4u},
    {0xb1d0b254d880c53eu, 0x2f5d314606a297d4u, 0x425c3ff1f4ac737bu, 0x1c89c6d9666272e8u},
    {0x8b71e2311bb88f8fu, 0x21ad4880097a5eb3u, 0xf6d44008ae4c042au, 0x03326e643580356bu},
    {0x5bdde2299910a4c9u, 0x50f27a6434b5dcebu, 0x67cee9ea0e51e3adu, 0x268076b0054fb73fu},
};
inline constexpr bn254_limbs bn254_w3_external_final[12] = {
    {0x78d04aa6f8747ad0u, 0x5da18ea9d8e4f101u, 0x626ed93491bda32eu, 0x1acd63c67fbc9ab1u},
    {0xca8c86cd2a28b5a5u, 0x1bf93375e2323ec3u, 0xc4e3144be58ef690u, 0x19f8a5d670e8ab66u},
    {0xe1cfbb5f7b9b6893u, 0x068193ea51f6c92au, 0x6efa40d2df10a011u, 0x1c0dc443519ad7a8u},
    {0x180e4c3224987d3du, 0xfbeab33cb4f6a2c4u, 0x50fe7190e421dc19u, 0x14b39e7aa4068dbeu},
    {0xafb1e35e28b0795eu, 0xb820fc519f01f021u, 0x8f28c63ea6c561b7u, 0x1d449b71bd826ec5u},
    {0x76524dc0a9e987fcu, 0x89de141689d12522u, 0x60fa97fe60fe9d8eu, 0x1ea2c9a89baaddbbu},
    {0x134d5cefdb3c7ff1u, 0x591f9a46a0e9c058u, 0xb57e9c1c3d6a2bd7u, 0x0478d66d43535a8cu},
    {0x1cde5e4a7b00bebeu, 0x662e26ad86c400b2u, 0xf608f3b2717f9cd2u, 0x19272db71eece6a6u},
    {0x039be846af134166u, 0xb2dd1bd66a87ef75u, 0xc749c746f09208abu, 0x14226537335cab33u},
    {0xf912f44961f9a9ceu, 0xb21c21e4a1c2e823u, 0x9dfe38c0d976a088u, 0x01fd6af15956294fu},
    {0x5ad8518d4e5f2a57u, 0xaee2e62ed229ba5au, 0x7bca190b8b2cab1au, 0x18e5abedd626ec30u},
    {0x0e2d54dc1c84fda6u, 0x97c021a3a409926du, 0xabbdffa6d3b35e32u, 0x0fc1bbceba0590f5u},
};
inline constexpr bn254_limbs bn254_w3_internal_diag[3] = {
    {0x0000000000000001u, 0x0000000000000000u, 0x0000000000000000u, 0x0000000000000000u},
    {0x0000000000000001u, 0x0000000000000000u, 0x0000000000000000u, 0x0000000000000000u},
    {0x0000000000000002u, 0x0000000000000000u, 0x0000000000000000u, 0x0000000000000000u},
};
// clang-format on

} // namespace constants
} // namespace poseidon2
} // namespace merklize
