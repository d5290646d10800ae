// Release-fence padding removed from re-finalized kernels on sm_100+
// (src/mercury/refinalize_fences.cpp, docs/notes/refinalization.md).
#include "mercury/refinalize.h"
#include "sass_words.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

using namespace dlink;

namespace {

using test::Words;
using test::bytes_of;

// clusters' k_dyncluster at sm_100: ptxas's code (its stack-pointer load has
// no scoreboard) and nvlink's re-finalized code (expected.cubin).
const Words kDynclusterInput = {
    {0x0000df00ff017b82ull, 0x000e220000000800ull},
    {0x00006d80ff0677acull, 0x000e620008000800ull},
    {0x00006b00ff0477acull, 0x000ea20008000a00ull},
    {0x000000010600788cull, 0x002fd2000bf02070ull},
    {0x0000000108287547ull, 0x004fea000b800000ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x0000000000007992ull, 0x000fc00000008000ull},
    {0x0000000000007992ull, 0x000fec000000a000ull},
    {0x00000000000079abull, 0x000fc00000000000ull},
    {0x00000000000075abull, 0x000ff00000000000ull},
    {0x00000000000079c7ull, 0x000fe20008000000ull},
    {0x0000000000047947ull, 0x000fea0003800000ull},
    {0x0000000000007918ull, 0x000fe20000000000ull},
    {0x00000001080c7547ull, 0x000fea000b800000ull},
    {0x0000000000007dc7ull, 0x000fe20008000000ull},
    {0x00000000ff00798full, 0x000fe20002000000ull},
    {0x0000000000047947ull, 0x000fea0003800000ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0x0000000000077919ull, 0x000e620000002500ull},
    {0x0000e000ff027b82ull, 0x000e620000000a00ull},
    {0x0000000000057919ull, 0x000ea20000008800ull},
    {0x0000000407027825ull, 0x002fca00078e0002ull},
    {0x0000000502007986ull, 0x004fe2000c101904ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
};
const Words kDynclusterNvlink = {
    {0x0000df00ff017b82ull, 0x000fe20000000800ull},
    {0x00006d80ff0677acull, 0x000e220008000800ull},
    {0x00006b00ff0477acull, 0x000e620008000a00ull},
    {0x000000010600788cull, 0x001fd2000bf02070ull},
    {0x0000000108147547ull, 0x002fea000b800000ull},
    {0x0000000000007992ull, 0x000fec000000a000ull},
    {0x00000000000079abull, 0x000fc00000000000ull},
    {0x00000000000075abull, 0x000ff00000000000ull},
    {0x00000000000079c7ull, 0x000fe20008000000ull},
    {0x0000000000047947ull, 0x000fea0003800000ull},
    {0x0000000000007918ull, 0x000fe20000000000ull},
    {0x00000001080c7547ull, 0x000fea000b800000ull},
    {0x0000000000007dc7ull, 0x000fe20008000000ull},
    {0x00000000ff00798full, 0x000fe20002000000ull},
    {0x0000000000047947ull, 0x000fea0003800000ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0x0000000000077919ull, 0x000e220000002500ull},
    {0x0000e000ff027b82ull, 0x000e220000000a00ull},
    {0x0000000000057919ull, 0x000e620000008800ull},
    {0x0000000407027825ull, 0x001fca00078e0002ull},
    {0x0000000502007986ull, 0x002fe2000c101904ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
};
// Its capsule (.nv.capmerc.text._Z12k_dynclusterPi), input and nvlink's.
const std::vector<u8> kDynclusterCapsule = {
    0x13, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0xc0, 0x13, 0x00, 0x00, 0x00,
    0x58, 0x85, 0x02, 0x00, 0x01, 0x0b, 0x04, 0x0a, 0xf8, 0x00, 0x04, 0x00,
    0x00, 0x00, 0x41, 0x00, 0x00, 0x04, 0x00, 0x00, 0x01, 0x0b, 0x06, 0x0a,
    0xfa, 0x00, 0x04, 0x00, 0x00, 0x00, 0x81, 0x01, 0x07, 0x04, 0x00, 0x00,
    0x01, 0x0b, 0x0e, 0x0a, 0xfa, 0x00, 0x05, 0x00, 0x00, 0x00, 0x03, 0x01,
    0x39, 0x04, 0x00, 0x00, 0xd1, 0x04, 0x01, 0x47, 0x00, 0x0a, 0xfa, 0x00,
    0x81, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x47,
    0x6c, 0x0a, 0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x51, 0x01, 0x01, 0x47, 0x06, 0x0a, 0xfa, 0x00, 0x41, 0x02,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x47, 0x5a, 0x16,
    0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x0b, 0x04, 0x0a, 0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0xc1, 0x01,
    0x04, 0x02, 0x00, 0x00, 0x02, 0x22, 0x0e, 0x06, 0xf8, 0x00, 0x52, 0x00,
    0x00, 0x00, 0x83, 0x00, 0x40, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x0b, 0x04, 0x0a, 0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0x41, 0x01,
    0x2c, 0x02, 0x00, 0x00, 0x02, 0x38, 0x0e, 0x32, 0xf8, 0x00, 0x40, 0x11,
    0x00, 0x00, 0x00, 0x00, 0x82, 0x00, 0x0a, 0x00, 0x00, 0x02, 0x01, 0x40,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xd0, 0x06,
};
const std::vector<u8> kDynclusterCapsuleNvlink = {
    0x13, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0xc0, 0x13, 0x00, 0x00, 0x00,
    0x58, 0x85, 0x02, 0x00, 0x01, 0x0b, 0x04, 0x0a, 0xf8, 0x00, 0x04, 0x00,
    0x00, 0x00, 0x41, 0x00, 0x00, 0x04, 0x00, 0x00, 0x01, 0x0b, 0x06, 0x0a,
    0xfa, 0x00, 0x04, 0x00, 0x00, 0x00, 0x81, 0x01, 0x07, 0x04, 0x00, 0x00,
    0x01, 0x0b, 0x0e, 0x0a, 0xfa, 0x00, 0x05, 0x00, 0x00, 0x00, 0x03, 0x01,
    0x39, 0x04, 0x00, 0x00, 0x51, 0x02, 0x01, 0x47, 0x00, 0x0a, 0xfa, 0x00,
    0x81, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x47,
    0x6c, 0x0a, 0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x51, 0x01, 0x01, 0x47, 0x06, 0x0a, 0xfa, 0x00, 0x41, 0x02,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x47, 0x5a, 0x16,
    0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x0b, 0x04, 0x0a, 0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0xc1, 0x01,
    0x04, 0x02, 0x00, 0x00, 0x02, 0x22, 0x0e, 0x06, 0xf8, 0x00, 0x52, 0x00,
    0x00, 0x00, 0x83, 0x00, 0x40, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x0b, 0x04, 0x0a, 0xf8, 0x00, 0x04, 0x00, 0x00, 0x00, 0x41, 0x01,
    0x2c, 0x02, 0x00, 0x00, 0x02, 0x38, 0x0e, 0x32, 0xf8, 0x00, 0x40, 0x11,
    0x00, 0x00, 0x00, 0x00, 0x82, 0x00, 0x0a, 0x00, 0x00, 0x02, 0x01, 0x40,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x50, 0x05,
};
// A probe at sm_100 (red.release.gpu and atom.release.sys in the two arms of
// an if; a CTA+SYS MEMBAR pair without padding): ptxas's code and nvlink's.
const Words kProbeInput = {
    {0x0000df00ff017b82ull, 0x000e220000000800ull},
    {0x0000000000057919ull, 0x000e6e0000002100ull},
    {0x0000e000ff027b82ull, 0x000e620000000a00ull},
    {0x00006b00ff0877acull, 0x000ea20008000a00ull},
    {0x00007100ff0a77acull, 0x000ee20008000800ull},
    {0x00007000ff0677acull, 0x000f220008000a00ull},
    {0x0000000405027825ull, 0x002fca00078e0002ull},
    {0x0000000802077981ull, 0x004ee2000c1e1900ull},
    {0x0000000400047882ull, 0x000fe20000000000ull},
    {0x0000000000057882ull, 0x000fe20000000000ull},
    {0x000003a000007945ull, 0x000fe20003800200ull},
    {0x00000001060478a5ull, 0x010fc8000f8e0004ull},
    {0x0000000705067290ull, 0x000fe4000fffe0ffull},
    {0x0000000500057c02ull, 0x000fe40008000f00ull},
    {0x0000000400047c02ull, 0x000fe40008000f00ull},
    {0x0000000600057c02ull, 0x000fe40008000f00ull},
    {0x0000000a07007c0cull, 0x008fda000bf04270ull},
    {0x0000000000408947ull, 0x001fea0003800000ull},
    {0x0000000000007919ull, 0x000e220000000000ull},
    {0x00000000070573c4ull, 0x000e62000000c200ull},
    {0x0000000000047886ull, 0x000fe400038e0100ull},
    {0x00000004000472bdull, 0x000fe200080e0000ull},
    {0x0000000500097c02ull, 0x002fca0008000f00ull},
    {0x0000000400007c0cull, 0x001fda000bf02070ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x0000000000000992ull, 0x000fc00000008000ull},
    {0x0000000000000992ull, 0x000fec000000a000ull},
    {0x00000000000009abull, 0x000fc00000000000ull},
    {0x00000000000005abull, 0x000fec0000000000ull},
    {0x000000090400098eull, 0x0001e2000c12e308ull},
    {0x0000000000887947ull, 0x000fea0003800000ull},
    {0x0000000000007806ull, 0x000fc800038e0100ull},
    {0xffffffff0000780cull, 0x000fda0003f02070ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x00000000fffff984ull, 0x000fe20000000800ull},
    {0x0000000000008992ull, 0x000fc00000008000ull},
    {0x0000000000008992ull, 0x000fec000000b000ull},
    {0x00000000000089abull, 0x000fc00000000000ull},
    {0x00000000000085abull, 0x000fec0000000000ull},
    {0x80000407040089a8ull, 0x00016200081f5308ull},
    {0x0000000000548947ull, 0x000fea0003800000ull},
    {0x0420000007007989ull, 0x020e6200000000ffull},
    {0x000000ffff097224ull, 0x000fe200078e0007ull},
    {0x0000000000067919ull, 0x000ea20000000000ull},
    {0x0000000007090210ull, 0x002fca0007ffe0ffull},
    {0x0440000009007989ull, 0x000e6200000000ffull},
    {0x0000001f0600780cull, 0x004fe20003f22070ull},
    {0x0000000109090824ull, 0x002fca00078e0200ull},
    {0x0480000009007989ull, 0x000e6400000000ffull},
    {0x0000000009090210ull, 0x002fca0007ffe0ffull},
    {0x0500000009007989ull, 0x000e6400000000ffull},
    {0x0000000109090824ull, 0x002fca00078e0200ull},
    {0x0600000009007989ull, 0x000e6400000000ffull},
    {0x0000000009090210ull, 0x002fe20007ffe0ffull},
    {0x0000000000001992ull, 0x000fc00000008000ull},
    {0x0000000000001992ull, 0x000fec000000b000ull},
    {0x00000000000019abull, 0x000fc00000000000ull},
    {0x00000000000015abull, 0x000fec0000000000ull},
    {0x80000409040419a8ull, 0x001ea800081f5308ull},
    {0x0420000009077989ull, 0x000fe800000000ffull},
    {0x03e01f0004007f89ull, 0x004e2400000e0000ull},
    {0x0000000100000824ull, 0x001fce00078e0207ull},
    {0x0000000000077202ull, 0x021fce0000000f00ull},
    {0x0000000000007941ull, 0x000fea0003800200ull},
    {0x0000800702007986ull, 0x000fe2000c101908ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
};
const Words kProbeNvlink = {
    {0x0000df00ff017b82ull, 0x000fe20000000800ull},
    {0x0000000000057919ull, 0x000e2e0000002100ull},
    {0x0000e000ff027b82ull, 0x000e220000000a00ull},
    {0x00006b00ff0877acull, 0x000e620008000a00ull},
    {0x00007100ff0a77acull, 0x000ea20008000800ull},
    {0x00007000ff0677acull, 0x000ee20008000a00ull},
    {0x0000000405027825ull, 0x001fca00078e0002ull},
    {0x0000000802077981ull, 0x002ea2000c1e1900ull},
    {0x0000000400047882ull, 0x000fe20000000000ull},
    {0x0000000000057882ull, 0x000fe20000000000ull},
    {0x000002f000007945ull, 0x000fe20003800200ull},
    {0x00000001060478a5ull, 0x008fc8000f8e0004ull},
    {0x0000000705067290ull, 0x000fe4000fffe0ffull},
    {0x0000000500057c02ull, 0x000fe40008000f00ull},
    {0x0000000400047c02ull, 0x000fe40008000f00ull},
    {0x0000000600057c02ull, 0x000fe40008000f00ull},
    {0x0000000a07007c0cull, 0x004fda000bf04270ull},
    {0x00000000002c8947ull, 0x000fea0003800000ull},
    {0x0000000000007919ull, 0x000e220000000000ull},
    {0x00000000070573c4ull, 0x000e62000000c200ull},
    {0x0000000000047886ull, 0x000fe400038e0100ull},
    {0x00000004000472bdull, 0x000fe200080e0000ull},
    {0x0000000500097c02ull, 0x002fca0008000f00ull},
    {0x0000000400007c0cull, 0x001fda000bf02070ull},
    {0x0000000000000992ull, 0x000fec000000a000ull},
    {0x00000000000009abull, 0x000fc00000000000ull},
    {0x00000000000005abull, 0x000fec0000000000ull},
    {0x000000090400098eull, 0x0001e2000c12e308ull},
    {0x0000000000707947ull, 0x000fea0003800000ull},
    {0x0000000000007806ull, 0x000fc800038e0100ull},
    {0xffffffff0000780cull, 0x000fda0003f02070ull},
    {0x0000000000008992ull, 0x000fec000000b000ull},
    {0x00000000000089abull, 0x000fc00000000000ull},
    {0x00000000000085abull, 0x000fec0000000000ull},
    {0x80000407040089a8ull, 0x00016200081f5308ull},
    {0x0000000000508947ull, 0x000fea0003800000ull},
    {0x0420000007007989ull, 0x020e6200000000ffull},
    {0x000000ffff097224ull, 0x000fe200078e0007ull},
    {0x0000000000067919ull, 0x000ea20000000000ull},
    {0x0000000007090210ull, 0x002fca0007ffe0ffull},
    {0x0440000009007989ull, 0x000e6200000000ffull},
    {0x0000001f0600780cull, 0x004fe20003f22070ull},
    {0x0000000109090824ull, 0x002fca00078e0200ull},
    {0x0480000009007989ull, 0x000e6400000000ffull},
    {0x0000000009090210ull, 0x002fca0007ffe0ffull},
    {0x0500000009007989ull, 0x000e6400000000ffull},
    {0x0000000109090824ull, 0x002fca00078e0200ull},
    {0x0600000009007989ull, 0x000e6400000000ffull},
    {0x0000000009090210ull, 0x002fe20007ffe0ffull},
    {0x0000000000001992ull, 0x000fec000000b000ull},
    {0x00000000000019abull, 0x000fc00000000000ull},
    {0x00000000000015abull, 0x000fec0000000000ull},
    {0x80000409040419a8ull, 0x001ea800081f5308ull},
    {0x0420000009077989ull, 0x000fe800000000ffull},
    {0x03e01f0004007f89ull, 0x004e2400000e0000ull},
    {0x0000000100000824ull, 0x001fce00078e0207ull},
    {0x0000000000077202ull, 0x021fce0000000f00ull},
    {0x0000000000007941ull, 0x000fea0003800200ull},
    {0x0000800702007986ull, 0x000fe2000c101908ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
};

} // namespace

TEST(RefinalizeFences, StripsPaddingAndCtaMembar) {
  // Four `@!PT LDS` and the CTA MEMBAR go; the trailing padding is redone
  // (0x280 -> 0x200); then the scoreboards are re-allocated.
  std::vector<u8> in = bytes_of(kDynclusterInput), want = bytes_of(kDynclusterNvlink);
  FenceStrip st = strip_fence_padding(in);
  ASSERT_EQ(st.status, FenceStrip::Stripped);
  EXPECT_EQ(st.pairs, 1u);
  ASSERT_EQ(st.code.size(), want.size());
  for (size_t i = 0; i < want.size(); i += 16) // all but the scheduling controls
    EXPECT_TRUE(std::equal(want.begin() + i, want.begin() + i + 13, st.code.begin() + i)) << i;
  ASSERT_TRUE(reallocate_scoreboards(in, st.code));
  EXPECT_EQ(st.code, want);
  // The padding starts at 0x50: what follows moves up by 0x50.
  EXPECT_TRUE(st.removed[0x50 / 16] && st.removed[0x90 / 16]);
  EXPECT_EQ(st.pos[0xa0 / 16] * 16, 0x50u);
}

TEST(RefinalizeFences, FixesBranchOffsetsAndReallocates) {
  // Two padded fences and one CTA+SYS pair without padding: BRA and BSSY
  // offsets move, and the scoreboards are re-allocated as nvlink does.
  std::vector<u8> in = bytes_of(kProbeInput);
  FenceStrip st = strip_fence_padding(in);
  ASSERT_EQ(st.status, FenceStrip::Stripped);
  EXPECT_EQ(st.pairs, 3u);
  ASSERT_EQ(st.code.size(), bytes_of(kProbeNvlink).size());
  ASSERT_TRUE(reallocate_scoreboards(in, st.code));
  EXPECT_EQ(st.code, bytes_of(kProbeNvlink));
}

TEST(RefinalizeFences, NoFencesNoChange) {
  Words w = kDynclusterNvlink;
  FenceStrip st = strip_fence_padding(bytes_of(w));
  EXPECT_EQ(st.status, FenceStrip::NoFences);
}

TEST(RefinalizeFences, ReleaseCtaAloneIsOutside) {
  // Padding before a CTA MEMBAR with no GPU/SYS MEMBAR after it
  // (`.release.cta`): its capsule record changes differently; kept.
  Words w = kDynclusterInput;
  for (auto &[lo, hi] : w)
    if ((lo & 0xfff) == 0x992 && (hi & ((u64(1) << 41) - 1)) != 0x8000) {
      lo = 0x0000000000007918ull; // the GPU MEMBAR becomes a NOP
      hi = 0x000fc00000000000ull;
      break;
    }
  EXPECT_EQ(strip_fence_padding(bytes_of(w)).status, FenceStrip::Outside);
}

TEST(RefinalizeFences, ScoreboardedPaddingIsOutside) {
  Words w = kDynclusterInput;
  for (auto &[lo, hi] : w)
    if (lo == 0x00000000fffff984ull) {
      hi = (hi & ~(u64(7) << 46)) | u64(2) << 46; // a write scoreboard on the padding
      break;
    }
  EXPECT_EQ(strip_fence_padding(bytes_of(w)).status, FenceStrip::Outside);
}

TEST(RefinalizeFences, RecodesCapsuleRecordAndCheckField) {
  auto out = recode_fence_capsule(kDynclusterCapsule, 1);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, kDynclusterCapsuleNvlink);
  // One record per MEMBAR pair, or the capsule is left alone.
  EXPECT_FALSE(recode_fence_capsule(kDynclusterCapsule, 2));
  EXPECT_FALSE(recode_fence_capsule(kDynclusterCapsule, 0));
}

TEST(RefinalizeFences, CapsuleCheckFieldWraps) {
  // 0x50 | k << 7, k from 9 to 16: 0x4d1 -> 0x251 adds 5 to k modulo 8.
  std::vector<u8> cap = {0x00, 0x00, 0xd1, 0x04, 0x01, 0x47, 0x00, 0x00, 0x50, 0x08};
  auto out = recode_fence_capsule(cap, 1);
  ASSERT_TRUE(out);
  EXPECT_EQ((*out)[2], 0x51);
  EXPECT_EQ((*out)[3], 0x02);
  EXPECT_EQ((*out)[8] | (*out)[9] << 8, 0x50 | 13 << 7); // k 16 -> 13
  cap[8] = 0x51; // not the check field's form
  EXPECT_FALSE(recode_fence_capsule(cap, 1));
}

// A lone block-scope MEMBAR (`__threadfence_block()`): its record's "d1 02"
// prefix goes and the check field moves by 4 units per prefix (measured:
// HeCBench fpdc at sm_120, seven prefixes, k 10 -> 14; golden case
// refin_block_fence). Beside a device-scope pair ("d1 04", 5 units), both.
TEST(RefinalizeFences, BlockFencePrefixDeleted) {
  std::vector<u8> cap = {0x00, 0x00, 0xd1, 0x02, 0x01, 0x49, 0x10, 0x0a, 0xd1, 0x04, 0x01, 0x49, 0x50, 0x06};
  auto out = recode_fence_capsule(cap, 1, 0, 1);
  ASSERT_TRUE(out);
  std::vector<u8> want = {0x00, 0x00, 0x01, 0x49, 0x10, 0x0a, 0x51, 0x02, 0x01, 0x49, 0xd0, 0x06};
  EXPECT_EQ(*out, want); // k 12 -> 13 (4 + 5 units)
  // Counts that do not match the records: left alone. A "d1 02" record
  // reads like a system-scope pair's, so a kernel with both kinds, where
  // prefixes and pair records cannot be told apart, is left alone too.
  EXPECT_FALSE(recode_fence_capsule(cap, 1, 0, 2));
  EXPECT_FALSE(recode_fence_capsule(cap, 0, 0, 2));
  EXPECT_FALSE(recode_fence_capsule(cap, 2, 0, 1));
}

// -g on sm_100+, a kernel compiled without -G: a predicated EXIT right after
// a producer with stall 6 or more that it does not wait on (a random
// -lineinfo module's MUFU with stall 10, then @P0 EXIT). nvlink waits on
// the producer there in some such kernels, by a rule not found; the EXIT
// keeps ptxas's waits (nvlink's bytes in that module) and the kernel is
// marked as not reproduced, not refused.
namespace {
const Words kExitAfterLongStall = {
    {0x0000000400047311ull, 0x000e34000020d900ull}, // MUFU, stall 10, writes sb0
    {0x000000000000894dull, 0x000fea0003800000ull}, // @P0 EXIT, no wait
    {0x0000000508007986ull, 0x000fe2000c101906ull}, // STG
    {0x000000000000794dull, 0x000fea0003800000ull}, // EXIT
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull}, // BRA -4
};
Words padded(Words w) {
  const size_t n = ((w.size() * 16 + 127) / 128 * 128 + 128) / 16;
  while (w.size() < n)
    w.push_back({0x0000000000007918ull, 0x000fc00000000000ull});
  return w;
}
} // namespace

TEST(DebugExitCode, ExitAfterLongStallKeepsPtxasWaits) {
  DebugExitCode dx = insert_debug_exit_code(bytes_of(padded(kExitAfterLongStall)));
  ASSERT_EQ(dx.status, DebugExitCode::Inserted) << dx.why;
  EXPECT_TRUE(dx.unmodelled_exit_wait);
  ASSERT_EQ(dx.exits, (std::vector<size_t>{1, 3}));
  Words want = {
      kExitAfterLongStall[0],
      {0x0000000000008992ull, 0x000fc00000005000ull}, // the sequence, with @P0
      {0x00000000000089abull, 0x000fc00000000000ull},
      {0x00000000000085abull, 0x000fec0000000000ull},
      kExitAfterLongStall[1], // its waits as ptxas wrote them
      kExitAfterLongStall[2],
      {0x0000000000007992ull, 0x000fc00000005000ull},
      {0x00000000000079abull, 0x000fc00000000000ull},
      {0x00000000000075abull, 0x000fec0000000000ull},
      kExitAfterLongStall[3],
      kExitAfterLongStall[4],
  };
  EXPECT_EQ(dx.code, bytes_of(padded(want)));
}

TEST(DebugExitCode, ExitWaitingOnTheProducerIsModelled) {
  Words w = kExitAfterLongStall;
  w[1].second |= u64(1) << 52; // the EXIT waits on sb0
  DebugExitCode dx = insert_debug_exit_code(bytes_of(padded(w)));
  ASSERT_EQ(dx.status, DebugExitCode::Inserted) << dx.why;
  EXPECT_FALSE(dx.unmodelled_exit_wait);
}

TEST(DebugExitCode, OutsideSaysWhy) {
  Words w = padded(kExitAfterLongStall);
  w[4] = {0x0000000000007918ull, 0x000fc00000000000ull}; // no closing BRA
  DebugExitCode dx = insert_debug_exit_code(bytes_of(w));
  EXPECT_EQ(dx.status, DebugExitCode::Outside);
  EXPECT_STREQ(dx.why, "no closing BRA and padding");
}

// Padding that is no fence's: ptxas's `@!PT LDS RZ, [RZ]` before an LDGSTS
// group (flashinfer's SingleDecodeWithKVCacheKernel at sm_100, HeCBench):
// nvlink keeps it and re-finalizes the kernel as one without fences.
TEST(RefinalizeFences, PaddingBeforeLdgstsIsNoFence) {
  Words w = {
      {0x0000000000047947ull, 0x000fea0003800000ull}, // BRA
      {0x00000000fffff984ull, 0x000fe20000000800ull}, // padding x3
      {0x00000000fffff984ull, 0x000fe20000000800ull},
      {0x00000000fffff984ull, 0x000fe20000000800ull},
      {0x0000000000007faeull, 0x0003e8000b981a10ull}, // LDGSTS x2
      {0x0000000000007faeull, 0x0003e4000b981a10ull},
      {0x000000000000794dull, 0x000fea0003800000ull}, // EXIT
      {0xfffffffc00fc7947ull, 0x000fc0000383ffffull}, // BRA -4
  };
  EXPECT_EQ(strip_fence_padding(bytes_of(w)).status, FenceStrip::NoFences);
  // Three before a MEMBAR pair are a fence's padding of another form.
  w[4] = {0x0000000000007992ull, 0x000fe20000008000ull};
  w[5] = {0x0000000000007992ull, 0x000fe20000002000ull};
  FenceStrip st = strip_fence_padding(bytes_of(w));
  EXPECT_EQ(st.status, FenceStrip::Outside);
  EXPECT_STREQ(st.why, "padding of other than four before a MEMBAR");
}
