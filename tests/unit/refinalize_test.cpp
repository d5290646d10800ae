// Scoreboard re-allocation of kernels nvlink re-finalizes on sm_100+
// (src/mercury/refinalize.h, docs/notes/refinalization.md).
#include "mercury/refinalize.h"
#include "mercury/sass_verify.h"
#include "sass_words.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace dlink;

namespace {

using test::Words;
using test::bytes_of;

// single_tu's add(float*, const float*, int) at sm_100: ptxas's code (input)
// and nvlink's re-finalized code (expected.cubin).
const Words kInput = {
    {0x0000df00ff017b82ull, 0x000e220000000800ull},
    {0x0000000000007919ull, 0x000e6e0000002100ull},
    {0x00000000000479c3ull, 0x000e620000002500ull},
    {0x00007200ff0577acull, 0x000eae0008000800ull},
    {0x0000d800ff077b82ull, 0x000e640000000800ull},
    {0x0000000407077c24ull, 0x002fca000f8e0200ull},
    {0x0000000507007c0cull, 0x004fda000bf06270ull},
    {0x000000000000094dull, 0x001fea0003800000ull},
    {0x0000e200ff027b82ull, 0x000e220000000a00ull},
    {0x00006b00ff0477acull, 0x000e6e0008000a00ull},
    {0x0000e000ff047b82ull, 0x000ea20000000a00ull},
    {0x0000000407027825ull, 0x001fcc00078e0202ull},
    {0x0000000402027981ull, 0x002ee2000c1e1900ull},
    {0x0000000407047825ull, 0x004fca00078e0204ull},
    {0x0000000404077981ull, 0x000ee4000c1e1900ull},
    {0x0000000702077221ull, 0x008fca0000000000ull},
    {0x0000000704007986ull, 0x000fe2000c101904ull},
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
    {0x0000000000007918ull, 0x000fc00000000000ull},
};
const Words kNvlink = {
    {0x0000df00ff017b82ull, 0x000fe20000000800ull},
    {0x0000000000007919ull, 0x000e2e0000002100ull},
    {0x00000000000479c3ull, 0x000e220000002500ull},
    {0x00007200ff0577acull, 0x000e6e0008000800ull},
    {0x0000d800ff077b82ull, 0x000e240000000800ull},
    {0x0000000407077c24ull, 0x001fca000f8e0200ull},
    {0x0000000507007c0cull, 0x002fda000bf06270ull},
    {0x000000000000094dull, 0x000fea0003800000ull},
    {0x0000e200ff027b82ull, 0x000e220000000a00ull},
    {0x00006b00ff0477acull, 0x000e6e0008000a00ull},
    {0x0000e000ff047b82ull, 0x000ea20000000a00ull},
    {0x0000000407027825ull, 0x001fcc00078e0202ull},
    {0x0000000402027981ull, 0x002ee2000c1e1900ull},
    {0x0000000407047825ull, 0x004fca00078e0204ull},
    {0x0000000404077981ull, 0x000ee4000c1e1900ull},
    {0x0000000702077221ull, 0x008fca0000000000ull},
    {0x0000000704007986ull, 0x000fe2000c101904ull},
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
    {0x0000000000007918ull, 0x000fc00000000000ull},
};

} // namespace

TEST(Refinalize, ReproducesNvlinkScoreboards) {
  std::vector<u8> code = bytes_of(kInput);
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(kNvlink));
}

TEST(Refinalize, LeavesKernelWithCallAlone) {
  Words w = kInput;
  w[5].first = (w[5].first & ~u64(0xfff)) | 0x944; // a CALL
  std::vector<u8> code = bytes_of(w), before = code;
  EXPECT_FALSE(reallocate_scoreboards(code));
  EXPECT_EQ(code, before);
}

TEST(Refinalize, LeavesKernelTheModelDoesNotReproduce) {
  Words w = kInput;
  // The S2R at 0x10 on scoreboard 5 instead of 1: neither the whole-kernel
  // model nor the opening-region rule allocates that.
  w[1].second = (w[1].second & ~(u64(7) << 46)) | u64(5) << 46;
  std::vector<u8> code = bytes_of(w), before = code;
  EXPECT_FALSE(reallocate_scoreboards(code));
  EXPECT_EQ(code, before);
}

TEST(Refinalize, OpeningRegionAloneWhenTheRestIsNotReproduced) {
  Words w = kInput;
  // The LDG at 0xc0 on scoreboard 4 instead of 3: the whole-kernel model does
  // not reproduce that, but nothing is pending on entry to 0x70 (the EXIT
  // retires the opening region), so the region before it is re-allocated as
  // nvlink does and everything from 0x70 on keeps the input's controls.
  w[12].second = (w[12].second & ~(u64(7) << 46)) | u64(4) << 46;
  std::vector<u8> code = bytes_of(w), before = code;
  EXPECT_TRUE(reallocate_scoreboards(code));
  std::vector<u8> nv = bytes_of(kNvlink);
  EXPECT_TRUE(std::equal(code.begin(), code.begin() + 7 * 16, nv.begin()));
  EXPECT_TRUE(std::equal(code.begin() + 8 * 16, code.end(), before.begin() + 8 * 16));
}

TEST(Refinalize, NeedsStackPointerLoadFirst) {
  Words w(kInput.begin() + 1, kInput.end());
  std::vector<u8> code = bytes_of(w), before = code;
  EXPECT_FALSE(reallocate_scoreboards(code));
  EXPECT_EQ(code, before);
}

namespace {

// A block reduction with a loop (probe, sm_100, nvcc -rdc):
//   buf[t] = in[blockIdx.x * blockDim.x + t]; __syncthreads();
//   for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { buf[t] += buf[t + s]; __syncthreads(); }
//   if (t == 0) out[blockIdx.x] = buf[0];
// The loop's STS (0x1c0) takes read scoreboard 1 in nvlink's output although 0 is
// free there: the STS before the loop (0x110, scoreboard 0) is still pending at
// the loop head (0x150 waits on it) when the loop's STS arrives there over the
// backward edge (the LDS at 0x160 of the next iteration waits on it). ptxas's
// input gave the two stores 1 and 0 (the stack-pointer load held 0 until 0x130).
const Words kLoopInput = {
    {0x0000df00ff017b82ull, 0x000e220000000800ull},
    {0x0000000000007919ull, 0x000e6e0000002100ull},
    {0x0000e000ff027b82ull, 0x000ea20000000a00ull},
    {0x00006c00ff0777acull, 0x000e620008000800ull},
    {0x0000000000077919ull, 0x000e620000002500ull},
    {0x00006b00ff0877acull, 0x000ee20008000a00ull},
    {0x0000000707057c24ull, 0x002fc8000f8e0200ull},
    {0x0000000405027825ull, 0x004fcc00078e0002ull},
    {0x0000000802027981ull, 0x008ea2000c1e1900ull},
    {0x00000000000679c3ull, 0x000e620000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe20000000000ull},
    {0x000000020700788cull, 0x000fe2000bf06070ull},
    {0x000000ff0000720cull, 0x000fe20003f25270ull},
    {0x0000000504047290ull, 0x000fc8000fffe0ffull},
    {0x0000000406047291ull, 0x002fcc000f8ec0ffull},
    {0x0000000400057c11ull, 0x000fca000f8e10ffull},
    {0x0000000205007388ull, 0x0043e20000000800ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0x00000001082c7547ull, 0x001fea000b800000ull},
    {0x0000000700007c02ull, 0x000fce0008000f00ull},
    {0x00000001ff027819ull, 0x002fe20000011600ull},
    {0x0000000005047984ull, 0x001fe20000000800ull},
    {0x000000030000780cull, 0x000fe40003f04070ull},
    {0x0000000200007202ull, 0x000fe20000000f00ull},
    {0x0000000402037824ull, 0x000fcc00078e0205ull},
    {0x0000000003037984ull, 0x000e240000000800ull},
    {0x0000000403047221ull, 0x001fca0000000000ull},
    {0x0000000405007388ull, 0x0001e20000000800ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0xfffffffc00d80947ull, 0x000fea000383ffffull},
    {0x000000000000194dull, 0x000fea0003800000ull},
    {0x00000004ff057984ull, 0x003e220008000800ull},
    {0x0000e200ff027b82ull, 0x000e640000000a00ull},
    {0x0000000407027825ull, 0x002fca00078e0002ull},
    {0x0000000502007986ull, 0x001fe2000c101908ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
};
const Words kLoopNvlink = {
    {0x0000df00ff017b82ull, 0x000fe20000000800ull},
    {0x0000000000007919ull, 0x000e2e0000002100ull},
    {0x0000e000ff027b82ull, 0x000e620000000a00ull},
    {0x00006c00ff0777acull, 0x000e220008000800ull},
    {0x0000000000077919ull, 0x000e220000002500ull},
    {0x00006b00ff0877acull, 0x000ea20008000a00ull},
    {0x0000000707057c24ull, 0x001fc8000f8e0200ull},
    {0x0000000405027825ull, 0x002fcc00078e0002ull},
    {0x0000000802027981ull, 0x004ea2000c1e1900ull},
    {0x00000000000679c3ull, 0x000e220000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe20000000000ull},
    {0x000000020700788cull, 0x000fe2000bf06070ull},
    {0x000000ff0000720cull, 0x000fe20003f25270ull},
    {0x0000000504047290ull, 0x000fc8000fffe0ffull},
    {0x0000000406047291ull, 0x001fcc000f8ec0ffull},
    {0x0000000400057c11ull, 0x000fca000f8e10ffull},
    {0x0000000205007388ull, 0x0041e20000000800ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0x00000001082c7547ull, 0x000fea000b800000ull},
    {0x0000000700007c02ull, 0x000fce0008000f00ull},
    {0x00000001ff027819ull, 0x001fe20000011600ull},
    {0x0000000005047984ull, 0x002fe20000000800ull},
    {0x000000030000780cull, 0x000fe40003f04070ull},
    {0x0000000200007202ull, 0x000fe20000000f00ull},
    {0x0000000402037824ull, 0x000fcc00078e0205ull},
    {0x0000000003037984ull, 0x000e240000000800ull},
    {0x0000000403047221ull, 0x001fca0000000000ull},
    {0x0000000405007388ull, 0x0003e20000000800ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0xfffffffc00d80947ull, 0x000fea000383ffffull},
    {0x000000000000194dull, 0x000fea0003800000ull},
    {0x00000004ff057984ull, 0x003e220008000800ull},
    {0x0000e200ff027b82ull, 0x000e640000000a00ull},
    {0x0000000407027825ull, 0x002fca00078e0002ull},
    {0x0000000502007986ull, 0x001fe2000c101908ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
};

} // namespace

TEST(Refinalize, StoreAcrossTheBackwardEdgeMeetsEarlierStore) {
  std::vector<u8> code = bytes_of(kLoopInput);
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(kLoopNvlink));
}

namespace {

// static_shared's reduce_sum (sm_100, probe build):
//   for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { if (t < s) buf[t] += buf[t + s]; __syncthreads(); }
// The loop's STS (0x1b0) is retired by the backward branch (0x1f0); over the
// backward edge it meets, at the loop head (0x150), the STS before the loop
// (0x110), still pending there on entry: they interfere, so the loop's STS takes
// 1 in nvlink's output. ptxas's input, where the stack-pointer load held 0 until
// 0x130, gave both stores 0 and 1 the other way round.
const Words kReduceInput = {
    {0x0000df00ff017b82ull, 0x000e220000000800ull},
    {0x0000000000067919ull, 0x000e6e0000002100ull},
    {0x0000e000ff027b82ull, 0x000ea20000000a00ull},
    {0x00006c00ff0777acull, 0x000e620008000800ull},
    {0x0000000000077919ull, 0x000e620000002500ull},
    {0x00006b00ff0877acull, 0x000ee20008000a00ull},
    {0x0000000707057c24ull, 0x002fc8000f8e0206ull},
    {0x0000000405027825ull, 0x004fcc00078e0002ull},
    {0x0000000802027981ull, 0x008ea2000c1e1900ull},
    {0x00000000000679c3ull, 0x000e620000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe20000000000ull},
    {0x000000020700788cull, 0x000fe2000bf06070ull},
    {0x000000ff0600720cull, 0x000fe20003f05270ull},
    {0x0000000504047290ull, 0x000fc8000fffe0ffull},
    {0x0000000406047291ull, 0x002fcc000f8ec0ffull},
    {0x0000000406057c11ull, 0x000fca000f8e10ffull},
    {0x0000000205007388ull, 0x0043e20000000800ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0x0000000108307547ull, 0x001fea000b800000ull},
    {0x0000000700007c02ull, 0x000fce0008000f00ull},
    {0x00000001ff087819ull, 0x000fc80000011600ull},
    {0x000000080600720cull, 0x000fda0003f26070ull},
    {0x0000000408029824ull, 0x002fe200078e0205ull},
    {0x0000000005039984ull, 0x000fea0000000800ull},
    {0x0000000002029984ull, 0x000e240000000800ull},
    {0x0000000302049221ull, 0x001fca0000000000ull},
    {0x0000000405009388ull, 0x0001e20000000800ull},
    {0x0000000000007b1dull, 0x000fe20000010000ull},
    {0x000000030000780cull, 0x000fe20003f24070ull},
    {0x000000ffff007224ull, 0x000fd800078e0008ull},
    {0xfffffffc00d41947ull, 0x001fea000383ffffull},
    {0x000000000000094dull, 0x000fea0003800000ull},
    {0x00000000000679c3ull, 0x000e220000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe40000000000ull},
    {0x0000000504047290ull, 0x000fc8000fffe0ffull},
    {0x0000e200ff027b82ull, 0x002e620000000a00ull},
    {0x0000000406047291ull, 0x001fe2000f8ec0ffull},
    {0x0000000407027825ull, 0x002fd000078e0002ull},
    {0x00000004ff057984ull, 0x000e280008000800ull},
    {0x0000000502007986ull, 0x001fe2000c101908ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
};
const Words kReduceNvlink = {
    {0x0000df00ff017b82ull, 0x000fe20000000800ull},
    {0x0000000000067919ull, 0x000e2e0000002100ull},
    {0x0000e000ff027b82ull, 0x000e620000000a00ull},
    {0x00006c00ff0777acull, 0x000e220008000800ull},
    {0x0000000000077919ull, 0x000e220000002500ull},
    {0x00006b00ff0877acull, 0x000ea20008000a00ull},
    {0x0000000707057c24ull, 0x001fc8000f8e0206ull},
    {0x0000000405027825ull, 0x002fcc00078e0002ull},
    {0x0000000802027981ull, 0x004ea2000c1e1900ull},
    {0x00000000000679c3ull, 0x000e220000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe20000000000ull},
    {0x000000020700788cull, 0x000fe2000bf06070ull},
    {0x000000ff0600720cull, 0x000fe20003f05270ull},
    {0x0000000504047290ull, 0x000fc8000fffe0ffull},
    {0x0000000406047291ull, 0x001fcc000f8ec0ffull},
    {0x0000000406057c11ull, 0x000fca000f8e10ffull},
    {0x0000000205007388ull, 0x0041e20000000800ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0x0000000108307547ull, 0x000fea000b800000ull},
    {0x0000000700007c02ull, 0x000fce0008000f00ull},
    {0x00000001ff087819ull, 0x000fc80000011600ull},
    {0x000000080600720cull, 0x000fda0003f26070ull},
    {0x0000000408029824ull, 0x001fe200078e0205ull},
    {0x0000000005039984ull, 0x000fea0000000800ull},
    {0x0000000002029984ull, 0x000e240000000800ull},
    {0x0000000302049221ull, 0x001fca0000000000ull},
    {0x0000000405009388ull, 0x0003e20000000800ull},
    {0x0000000000007b1dull, 0x000fe20000010000ull},
    {0x000000030000780cull, 0x000fe20003f24070ull},
    {0x000000ffff007224ull, 0x000fd800078e0008ull},
    {0xfffffffc00d41947ull, 0x002fea000383ffffull},
    {0x000000000000094dull, 0x000fea0003800000ull},
    {0x00000000000679c3ull, 0x000e620000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe40000000000ull},
    {0x0000000504047290ull, 0x000fc8000fffe0ffull},
    {0x0000e200ff027b82ull, 0x001e220000000a00ull},
    {0x0000000406047291ull, 0x002fe2000f8ec0ffull},
    {0x0000000407027825ull, 0x001fd000078e0002ull},
    {0x00000004ff057984ull, 0x000e280008000800ull},
    {0x0000000502007986ull, 0x001fe2000c101908ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
};

// A reduction over long long (probe y5 at sm_100): the same loop shape, but
// ptxas and nvlink both let the loop's STS share the loop's LDS index. The
// model reproduces nvlink only when a backward branch's waits retire what
// crosses the edge (the loop-header reading); the other reading allocates
// differently, and nvlink follows the loop-header one (as in 8 of the 10
// kernels measured where the readings disagree).
const Words kReduce64Input = {
    {0x0000df00ff017b82ull, 0x000e220000000800ull},
    {0x0000000000027919ull, 0x000e6e0000002100ull},
    {0x00000000000679c3ull, 0x000ea20000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe20000000000ull},
    {0x00007100ff0777acull, 0x000ee20008000800ull},
    {0x000000ffff037224ull, 0x000fe200078e00ffull},
    {0x0000000504047290ull, 0x000fc4000fffe0ffull},
    {0x000000ff0700728cull, 0x008fe4000bf05270ull},
    {0x0000000406047291ull, 0x004fcc000f8ec0ffull},
    {0x0000000402097c11ull, 0x042fe4000f8e18ffull},
    {0x000000ff0200720cull, 0x000fc60003f05270ull},
    {0x0000000209007388ull, 0x0003e20000000a00ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0x0000000108347547ull, 0x000fea000b800000ull},
    {0x00007100ff0477acull, 0x000ea40008000800ull},
    {0x0000000400007c02ull, 0x004fce0008000f00ull},
    {0x000000000200720cull, 0x000fda0003f26070ull},
    {0x0000000800089824ull, 0x000fe200078e0209ull},
    {0x0000000009069984ull, 0x000fe80000000a00ull},
    {0x0000000008049984ull, 0x000ea40000000a00ull},
    {0x0000000604049210ull, 0x004fca0007f5e0ffull},
    {0x0000000105059824ull, 0x000fca00010e0607ull},
    {0x0000000409009388ull, 0x0005e20000000a00ull},
    {0x0000000000007b1dull, 0x000fe20000010000ull},
    {0x000000010000780cull, 0x000fe40003f24070ull},
    {0x00000001ff007819ull, 0x000fd60000011600ull},
    {0xfffffffc00d41947ull, 0x004fea000383ffffull},
    {0x000000000000094dull, 0x000fea0003800000ull},
    {0x00000000000679c3ull, 0x000ea20000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe20000000000ull},
    {0x0000000000077919ull, 0x000ee20000002500ull},
    {0x0000000504047290ull, 0x000fc8000fffe0ffull},
    {0x0000e000ff047b82ull, 0x000ee20000000a00ull},
    {0x0000000406047291ull, 0x004fd2000f8ec0ffull},
    {0x00000004ff027984ull, 0x002e640008000a00ull},
    {0x00006b00ff0477acull, 0x000e620008000a00ull},
    {0x0000000807047825ull, 0x008fca00078e0004ull},
    {0x0000000204007986ull, 0x002fe2000c101b04ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
};

const Words kReduce64Nvlink = {
    {0x0000df00ff017b82ull, 0x000fe20000000800ull},
    {0x0000000000027919ull, 0x000e2e0000002100ull},
    {0x00000000000679c3ull, 0x000e620000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe20000000000ull},
    {0x00007100ff0777acull, 0x000ea20008000800ull},
    {0x000000ffff037224ull, 0x000fe200078e00ffull},
    {0x0000000504047290ull, 0x000fc4000fffe0ffull},
    {0x000000ff0700728cull, 0x004fe4000bf05270ull},
    {0x0000000406047291ull, 0x002fcc000f8ec0ffull},
    {0x0000000402097c11ull, 0x041fe4000f8e18ffull},
    {0x000000ff0200720cull, 0x000fc60003f05270ull},
    {0x0000000209007388ull, 0x0001e20000000a00ull},
    {0x0000000000007b1dull, 0x000fec0000010000ull},
    {0x0000000108347547ull, 0x000fea000b800000ull},
    {0x00007100ff0477acull, 0x000e640008000800ull},
    {0x0000000400007c02ull, 0x002fce0008000f00ull},
    {0x000000000200720cull, 0x000fda0003f26070ull},
    {0x0000000800089824ull, 0x000fe200078e0209ull},
    {0x0000000009069984ull, 0x000fe80000000a00ull},
    {0x0000000008049984ull, 0x000e640000000a00ull},
    {0x0000000604049210ull, 0x002fca0007f5e0ffull},
    {0x0000000105059824ull, 0x000fca00010e0607ull},
    {0x0000000409009388ull, 0x0003e20000000a00ull},
    {0x0000000000007b1dull, 0x000fe20000010000ull},
    {0x000000010000780cull, 0x000fe40003f24070ull},
    {0x00000001ff007819ull, 0x000fd60000011600ull},
    {0xfffffffc00d41947ull, 0x002fea000383ffffull},
    {0x000000000000094dull, 0x000fea0003800000ull},
    {0x00000000000679c3ull, 0x000e620000008800ull},
    {0x0000000000047882ull, 0x000fe20000000000ull},
    {0x0000040000057882ull, 0x000fe20000000000ull},
    {0x0000000000077919ull, 0x000ea20000002500ull},
    {0x0000000504047290ull, 0x000fc8000fffe0ffull},
    {0x0000e000ff047b82ull, 0x000ea20000000a00ull},
    {0x0000000406047291ull, 0x002fd2000f8ec0ffull},
    {0x00000004ff027984ull, 0x001e240008000a00ull},
    {0x00006b00ff0477acull, 0x000e220008000a00ull},
    {0x0000000807047825ull, 0x004fca00078e0004ull},
    {0x0000000204007986ull, 0x001fe2000c101b04ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
};

} // namespace

TEST(Refinalize, LoopHeadMeetsWhatCrossesTheBackwardEdge) {
  std::vector<u8> code = bytes_of(kReduceInput);
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(kReduceNvlink));
}

TEST(Refinalize, BackwardEdgeReadingsDisagreeLoopHeaderTaken) {
  std::vector<u8> code = bytes_of(kReduce64Input);
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(kReduce64Nvlink));
}

// Pressure-shared producers (docs/notes/refinalization.md, "Device runtime").
namespace {
#include "refinalize_split_data.inc"

void expect_rewritten_to(const Words &in, const Words &out) {
  auto code = bytes_of(in);
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(out));
}
} // namespace

// An LDCU shares the LDC's index 5 while all six are pending; its reader
// comes after the shared wait: it gets the freed index and a wait there.
TEST(Refinalize, SplitsPressureSharedLdcuToItsReader) {
  expect_rewritten_to(kSplitIn, kSplitOut);
}

// The LDCU's reader is the shared wait: the other LDCU on that index moves to
// its own first reader.
TEST(Refinalize, SplitMovesTheOtherProducerWhenTheSharedWaitIsTheReader) {
  expect_rewritten_to(kSplitOtherIn, kSplitOtherOut);
}

// Two LDCs on the stack-pointer load's index keep sharing on the freed index,
// waited on where the stack-pointer load's wait was.
TEST(Refinalize, StackPointerSharersTakeTheFreedIndex) {
  expect_rewritten_to(kSpGroupIn, kSpGroupOut);
}

// The same with later shares for lack of a free index, which stay (probe q03,
// sm_120).
TEST(Refinalize, StackPointerSharersTakeTheFreedIndexOtherSharesStay) {
  expect_rewritten_to(kSpGroupPressureIn, kSpGroupPressureOut);
}

// The stack-pointer load's sharer is waited on by a predicated EXIT: nvlink
// moves it to another pending index (refinalize_join_test.cpp checks the
// bytes).
TEST(Refinalize, RewritesStackPointerSharerWaitedOnByExit) {
  auto code = bytes_of(kExitWaitIn);
  EXPECT_TRUE(reallocate_scoreboards(code));
}

// A share for lack of a free index before the stack-pointer load's sharer:
// nvlink gives it the freed index and the sharer shares it (probe s22 at
// sm_100; golden case refin_share_before_sharers has nvlink's bytes).
TEST(Refinalize, StackPointerSharerJoinsAnEarlierPressureShare) {
  auto code = bytes_of(kEarlierPressureShareIn);
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_TRUE(sass::verify_refinalized(bytes_of(kEarlierPressureShareIn), code).ok);
}

namespace {

// The opening region of a real-world kernel (sm_100, rod-srad2's srad_cuda_2:
// four S2Rs, an S2UR, three LDCs and an LDCU, all retired by 0x100), followed
// here by an EXIT. ptxas: the S2R and LDC at 0x10/0x20 (both read at 0xa0)
// share 1 with indices free; the LDC at 0x60 joins the LDCU at 0x30 (2) for
// lack of an index, the S2R at 0x70 the stack-pointer load's 0 (needed at
// 0xf0, where that load is waited on), the S2UR and LDC at 0x80/0x90 index 2.
// nvlink: 0, 0, 1, 2, 3, then the LDC at 0x60 takes the free 4 (the LDCU's
// reader is not decoded, so it does not count as needed at 0x100), the S2R at
// 0x70 joins the LDCU's 1 (needed first at or after 0xf0) which is then waited
// on at 0xf0, the S2UR and LDC join 4 (needed at 0x100).
const Words kRegionInput = {
    {0x0000df00ff017b82ull, 0x000e220000000800ull}, {0x0000000000127919ull, 0x000e6e0000002600ull},
    {0x0000ec00ff157b82ull, 0x000e620000000800ull}, {0x00006b00ff0877acull, 0x000ea20008000a00ull},
    {0x0000000000007919ull, 0x000ee20000002200ull}, {0x0000000000067919ull, 0x000f2a0000002500ull},
    {0x0000e800ff027b82ull, 0x000ea20000000a00ull}, {0x00000000000c7919ull, 0x000e2e0000002100ull},
    {0x00000000000a79c3ull, 0x000eb00000008800ull}, {0x0000ea00ff047b82ull, 0x000ea20000000a00ull},
    {0x00000015120b7224ull, 0x002fc400078e02ffull}, {0x0000001500077224ull, 0x008fc600078e02ffull},
    {0x000000040b0b7819ull, 0x000fca00000006ffull}, {0x00000010060a7824ull, 0x010fca00078e020bull},
    {0x000000070a117210ull, 0x000fca0007ffe0ffull}, {0x00000001110d7824ull, 0x001fc800078e020cull},
    {0x000000040d027825ull, 0x004fca00078e0202ull}, {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull}, {0x0000000000007918ull, 0x000fc00000000000ull},
};
const Words kRegionNvlink = {
    {0x0000df00ff017b82ull, 0x000fe20000000800ull}, {0x0000000000127919ull, 0x000e2e0000002600ull},
    {0x0000ec00ff157b82ull, 0x000e220000000800ull}, {0x00006b00ff0877acull, 0x000e620008000a00ull},
    {0x0000000000007919ull, 0x000ea20000002200ull}, {0x0000000000067919ull, 0x000eea0000002500ull},
    {0x0000e800ff027b82ull, 0x000f220000000a00ull}, {0x00000000000c7919ull, 0x000e6e0000002100ull},
    {0x00000000000a79c3ull, 0x000f300000008800ull}, {0x0000ea00ff047b82ull, 0x000f220000000a00ull},
    {0x00000015120b7224ull, 0x001fc400078e02ffull}, {0x0000001500077224ull, 0x004fc600078e02ffull},
    {0x000000040b0b7819ull, 0x000fca00000006ffull}, {0x00000010060a7824ull, 0x008fca00078e020bull},
    {0x000000070a117210ull, 0x000fca0007ffe0ffull}, {0x00000001110d7824ull, 0x002fc800078e020cull},
    {0x000000040d027825ull, 0x010fca00078e0202ull}, {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull}, {0x0000000000007918ull, 0x000fc00000000000ull},
};

} // namespace

TEST(Refinalize, OpeningRegionSharesByNeed) {
  std::vector<u8> code = bytes_of(kRegionInput);
  EXPECT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(kRegionNvlink));
}

namespace {

// Controls in the high word: stall, write and read scoreboard, wait mask.
constexpr u64 ctl(unsigned stall, unsigned wr, unsigned rd, unsigned wait) {
  return u64(stall) << 41 | u64(wr) << 46 | u64(rd) << 49 | u64(wait) << 52;
}

// The stack-pointer load, with (ptxas) or without (nvlink) its scoreboard 0.
std::pair<u64, u64> sp_load(bool sp) {
  return {0x0000df00ff017b82ull, 0x800 | ctl(1, sp ? 0 : 7, 7, 0)};
}

// EXIT, the closing self-branch and two NOPs.
Words with_tail(Words w) {
  w.push_back({0x000000000000794dull, 0x3800000 | ctl(5, 7, 7, 0)});
  w.push_back({0xfffffffc00fc7947ull, 0x000fc0000383ffffull});
  w.push_back({0x0000000000007918ull, 0x000fc00000000000ull});
  w.push_back({0x0000000000007918ull, 0x000fc00000000000ull});
  return w;
}

// A write scoreboard on its own instruction's read scoreboard index, with
// all six taken (HeCBench hadamard's SHFLs at sm_100): ptxas's share, which
// the model groups like a share with a pending producer. A small kernel in
// that shape: the stack-pointer load and five S2Rs take 0-5, a wait retires
// 0 and 4, an S2R takes 0 again, and the SHFL finds only 4 free for its read
// scoreboard and shares it with its write scoreboard.
Words shfl_kernel(unsigned s2r_again, unsigned shfl, unsigned wait_a, unsigned wait_b, bool sp) {
  Words w = {
      sp_load(sp),
      {0x0000000000027919ull, 0x2100 | ctl(1, sp ? 1 : 0, 7, 0)},
      {0x0000000000037919ull, 0x2100 | ctl(1, sp ? 2 : 1, 7, 0)},
      {0x0000000000047919ull, 0x2100 | ctl(1, sp ? 3 : 2, 7, 0)},
      {0x0000000000057919ull, 0x2100 | ctl(1, sp ? 4 : 3, 7, 0)},
      {0x0000000000067919ull, 0x2100 | ctl(1, sp ? 5 : 4, 7, 0)},
      {0x0000000503077210ull, ctl(1, 7, 7, wait_a)},
      {0x0000000000087919ull, 0x2100 | ctl(1, s2r_again, 7, 0)},
      {0x0000000a08097f89ull, ctl(2, shfl, shfl, 0)},
      {0x0000000902097210ull, ctl(1, 7, 7, wait_b)},
  };
  return with_tail(w);
}

} // namespace

TEST(Refinalize, WriteScoreboardSharingItsOwnReadScoreboard) {
  // ptxas: S2Rs on 1-5, the wait retires 0 and 4, the S2R takes 0, the SHFL
  // 4 for both. Without the stack-pointer load the S2Rs take 0-4, the wait
  // retires 3, the S2R takes 3 and the SHFL finds 5 free.
  std::vector<u8> code = bytes_of(shfl_kernel(0, 4, 0b010001, 0x3f, true));
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(shfl_kernel(3, 5, 0b001000, 0x3f, false)));
}

namespace {

// A predicated BRA from instruction `at` to instruction `to`.
std::pair<u64, u64> bra(size_t at, size_t to, unsigned pred) {
  u64 field = u64((int64_t(to) - int64_t(at) - 1) * 4);
  return {field << 16 | u64(pred) << 12 | 0x947, 0x3800000 | ctl(5, 7, 7, 0)};
}

// Two shared stores on one read scoreboard index: the first (y, 0x30) is
// retired on the fall-through path but not on the path that branches from
// 0x40 to the join at 0xb0; the second (x, 0x70) meets it only there, far
// past the first leader after x (0x80). ptxas does not look that far
// (HeCBench tsne's CUB reduce kernels): x takes y's index 0. (y is issued
// while the S2R is pending, so the opening-region rule does not apply.)
// Without the stack-pointer load the S2R takes 0 and y 1.
Words far_join_kernel(bool sp) {
  Words w = {
      sp_load(sp),
      {0x0000000000027919ull, 0x2100 | ctl(2, sp ? 1 : 0, 7, 0)},
      {0x0000000502037210ull, ctl(1, 7, 7, sp ? 0b1 : 0)},
      {0x0000000302007388ull, ctl(1, 7, sp ? 0 : 1, 0)},
      bra(4, 11, 0),
      {0x0000000503057210ull, ctl(1, 7, 7, 0b11)},
      bra(6, 8, 1),
      {0x0000000502007388ull, ctl(1, 7, 0, 0)},
      {0x0000000503067210ull, ctl(1, 7, 7, 0)},
      bra(9, 11, 0),
      {0x0000000503077210ull, ctl(1, 7, 7, 0)},
      {0x0000000503087210ull, ctl(1, 7, 7, sp ? 0b1 : 0b11)},
  };
  return with_tail(w);
}

} // namespace

TEST(Refinalize, ProducersMeetOnlyAtTheFirstLeaderAfterThem) {
  std::vector<u8> code = bytes_of(far_join_kernel(true));
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(far_join_kernel(false)));
}

namespace {

// Five S2Rs after the stack-pointer load take 1-5; a sixth, with all six
// pending, shares 3 (ptxas's pressure share). Without the stack-pointer load
// an index is free for it (HeCBench's first set at sm_100/sm_120). The
// predicated BRA at 0x10 ends the straight-line start, so the prefix rules
// for pressure shares do not apply.
// `count` producers after the stack-pointer load on 1, 2, ... (0, 1, ...
// without the load's scoreboard): the words `lo` (the k-th writing register
// 2 + k) and `hi`, stall 1.
void push_shifted(Words &w, bool sp, unsigned count, u64 lo, u64 hi) {
  for (unsigned k = 0; k < count; k++)
    w.push_back({lo | u64(2 + k) << 16, hi | ctl(1, sp ? 1 + k : k, 7, 0)});
}

constexpr u64 kS2r = 0x0000000000007919ull, kS2rHi = 0x2100;
constexpr u64 kLdc = 0x0000d800ff027b82ull, kLdcHi = 0x800;

// The stack-pointer load, a predicated BRA that ends the straight-line start
// (or none), and five S2Rs on 1-5 (0-4 without the load's scoreboard).
Words five_s2rs(bool sp, bool branch = true) {
  Words w = {sp_load(sp)};
  if (branch)
    w.push_back(bra(1, 2, 0));
  push_shifted(w, sp, 5, kS2r, kS2rHi);
  return w;
}

Words share_kernel(bool sp) {
  Words w = five_s2rs(sp);
  w.push_back({0x0000000000077919ull, 0x2100 | ctl(2, sp ? 3 : 5, 7, 0)});
  w.push_back({0x0000000503087210ull, ctl(1, 7, 7, 0x3f)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, PressureShareWhileTheStackPointerLoadIsPendingSplits) { expect_rewritten_to(share_kernel(true), share_kernel(false)); }

namespace {

// Five S2Rs after the stack-pointer load take 1-5, a sixth takes 0, the
// stack-pointer load's index (never waited on, so still pending), and a
// seventh, with all six pending, shares 0 with it. Without the stack-pointer
// load the five take 0-4, the sixth the index it freed, 5, and the seventh
// still has none of its own: it shares 5 with the sixth (HeCBench attention's
// blockReduce kernel and CUB's single-tile reduce kernels at sm_120: LDSs at
// 0x3d0 and 0x3e0 on 0 in ptxas's code, on 5 in nvlink's).
// (The seventh's index with and without the stack-pointer load's scoreboard:
// `shared` and `kept`.)
Words seventh_share_kernel(bool sp, unsigned shared, unsigned kept) {
  Words w = five_s2rs(sp);
  w.push_back({0x0000000000077919ull, 0x2100 | ctl(1, sp ? 0 : 5, 7, 0)});
  w.push_back({0x0000000000087919ull, 0x2100 | ctl(2, sp ? shared : kept, 7, 0)});
  w.push_back({0x0000000503097210ull, ctl(1, 7, 7, 0x3f)});
  return with_tail(w);
}

Words sp_share_kernel(bool sp) { return seventh_share_kernel(sp, 0, 5); }

} // namespace

TEST(Refinalize, PressureShareOnTheStackPointerLoadsIndexStays) { expect_rewritten_to(sp_share_kernel(true), sp_share_kernel(false)); }

namespace {

// As above, but the seventh shares 3, an S2R's index, for lack of a free
// one. Without the stack-pointer load the sixth takes the index that load
// frees, 5, so none is left for the seventh either: it keeps its share, on
// that S2R's 2 (CUB's DeviceReduceSingleTileKernel at sm_100: the shared
// load at 0xf10 takes the freed 5 and the one at 0xf30 shares the shuffles'
// read scoreboard, as in ptxas's code; before, the kernel was kept).
Words share_after_sp_share_kernel(bool sp) { return seventh_share_kernel(sp, 3, 2); }

} // namespace

TEST(Refinalize, PressureShareKeptWhenTheFreedIndexIsTaken) {
  expect_rewritten_to(share_after_sp_share_kernel(true), share_after_sp_share_kernel(false));
}

namespace {

// An LDC on 1 after the stack-pointer load, global loads on 2-5, and a last
// one whose read scoreboard, with all six pending, shares the LDC's 1: the
// wait after it retires both. Without the stack-pointer load the LDC takes 0
// and the read scoreboard still shares it, though 1 is free: nvlink keeps a
// read scoreboard's share (CUB's DeviceReduceSingleTileKernel in HeCBench
// tsne, ssim, laplace and logic-rewrite at sm_100/sm_120, the LDG at 0x3ad0).
Words read_share_kernel(bool sp) {
  Words w = {sp_load(sp), bra(1, 2, 0), {0x0000d800ff077b82ull, 0x800 | ctl(1, sp ? 1 : 0, 7, 0)}};
  for (unsigned k = 0; k < 4; k++)
    w.push_back({0x0000000402087981ull | u64(k) << 16, 0x0c1e1900 | ctl(4, 2 + k, 7, 0)});
  w.push_back({0x00000004020c7981ull, 0x0c1e1900 | ctl(2, 5, sp ? 1 : 0, 0)});
  w.push_back({0x0000000503097210ull, ctl(4, 7, 7, sp ? 0b10 : 0b01)});
  w.push_back({0x0000000503097210ull, ctl(1, 7, 7, 0x3c)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, ReadScoreboardPressureShareStays) { expect_rewritten_to(read_share_kernel(true), read_share_kernel(false)); }

namespace {

// In the straight-line start, five S2Rs take 1-5 and a SHFL (0xf89) the
// stack-pointer load's 0 with all six pending; a wait retires everything.
// Without the stack-pointer load the S2Rs take 0-4 and the SHFL the freed 5,
// as for an LDC or S2R sharer (HeCBench hadamard's kernels at sm_100; before,
// a sharer other than LDCU, LDC, S2R or S2UR kept the kernel).
Words shfl_sharer_kernel(bool sp) {
  Words w = five_s2rs(sp, false);
  w.push_back({0x0000000a08097f89ull, ctl(2, sp ? 0 : 5, 7, 0)});
  w.push_back({0x0000000503087210ull, ctl(1, 7, 7, 0x3f)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, ShuffleOnTheStackPointerLoadsIndexTakesTheFreedIndex) { expect_rewritten_to(shfl_sharer_kernel(true), shfl_sharer_kernel(false)); }

namespace {

// After the straight-line start, four LDCs take 1-4 and a fifth the
// stack-pointer load's 0, with 5 free (ptxas's choice). Without the
// stack-pointer load the four take 0-3 and the fifth 4 (HeCBench mask's four
// lower/upper mask kernels at sm_120). (A predicated LDC there is still
// outside the model: launch_params' k_lb, which nvlink does not re-finalize,
// golden case launch_params.)
Words ldc_sharer_kernel(bool sp) {
  Words w = {sp_load(sp), bra(1, 2, 0)};
  push_shifted(w, sp, 4, kLdc, kLdcHi);
  w.push_back({0x0000d800ff077b82ull, 0x800 | ctl(2, sp ? 0 : 4, 7, 0)});
  w.push_back({0x0000000503087210ull, ctl(1, 7, 7, 0x1f)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, LdcOnTheStackPointerLoadsIndexTakesTheFreedIndex) { expect_rewritten_to(ldc_sharer_kernel(true), ldc_sharer_kernel(false)); }

namespace {

// After the straight-line start, five LDCs take 1-5 and a wait retires the
// first; a global load (indices from 2) finds 2-5 pending and shares the
// second LDC's 2. Without the stack-pointer load the LDCs take 0-4, the wait
// frees 0, and 5 is free for the load: nvlink gives it 5 (CUB's
// DeviceReduceSingleTileKernel in Thrust's examples and HeCBench
// keccaktreehash at sm_100: the LDG at 0x1b0 on ptxas's 2, nvlink's 5).
Words global_share_kernel(bool sp) {
  Words w = {sp_load(sp), bra(1, 2, 0)};
  push_shifted(w, sp, 5, kLdc, kLdcHi);
  w.push_back({0x0000000503097210ull, ctl(4, 7, 7, sp ? 0b10 : 0b01)});
  w.push_back({0x00000004020c7981ull, 0x0c1e1900 | ctl(2, sp ? 2 : 5, 7, 0)});
  w.push_back({0x0000000503097210ull, ctl(1, 7, 7, sp ? 0x3c : 0x3e)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, GlobalLoadShareSplitsWhereTheReallocationFreesAnIndex) {
  expect_rewritten_to(global_share_kernel(true), global_share_kernel(false));
}

namespace {

// In the straight-line start, four S2Rs take 1-4 and an LDCU the
// stack-pointer load's 0 with 5 free; nothing waits on 0 before the
// predicated BRA that ends the start, which waits on the fourth S2R. Without
// the stack-pointer load the S2Rs take 0-3, the LDCU 4, and the BRA waits on
// both (llm.c's layernorm_forward, mean_kernel and rstd_kernel at sm_120: the
// LDCU at 0x80, waited at the @P0 BRA at 0xe0).
Words unwaited_sharer_kernel(bool sp) {
  Words w = {sp_load(sp)};
  push_shifted(w, sp, 4, kS2r, kS2rHi);
  w.push_back({0x00007200ff0677acull, 0x8000800ull | ctl(2, sp ? 0 : 4, 7, 0)});
  std::pair<u64, u64> b = bra(6, 7, 0);
  b.second |= ctl(0, 7, 7, sp ? 0b10000 : 0b11000);
  w.push_back(b);
  w.push_back({0x0000000503087210ull, ctl(1, 7, 7, sp ? 0b01111 : 0b00111)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, StackPointerSharerNothingWaitsOnIsWaitedAtTheBranch) {
  expect_rewritten_to(unwaited_sharer_kernel(true), unwaited_sharer_kernel(false));
}

namespace {

// In the straight-line start, five S2Rs take 1-5, an S2UR shares 5 with all
// six pending, and an S2R takes the stack-pointer load's 0. Without the
// stack-pointer load the S2Rs take 0-4, the S2UR keeps sharing the fifth's
// index (4), and the last S2R takes the freed 5, waited on where the
// stack-pointer load was (llm.c's softmax_autoregressive_backward_kernel7 at
// sm_100: the S2UR at 0xa0 and the S2R at 0xb0).
Words share_before_sharer_kernel(bool sp) {
  Words w = five_s2rs(sp, false);
  w.push_back({0x00000000000779c3ull, 0x2600 | ctl(1, sp ? 5 : 4, 7, 0)});
  w.push_back({0x0000000000087919ull, 0x2500 | ctl(1, sp ? 0 : 5, 7, 0)});
  w.push_back({0x0000000503097210ull, ctl(1, 7, 7, sp ? 0b100000 : 0b010000)});
  w.push_back({0x0000000503097210ull, ctl(1, 7, 7, sp ? 0b000001 : 0b100000)});
  w.push_back({0x0000000503097210ull, ctl(1, 7, 7, sp ? 0b011110 : 0b001111)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, ShareBeforeTheStackPointerSharerStays) {
  expect_rewritten_to(share_before_sharer_kernel(true), share_before_sharer_kernel(false));
}

namespace {

// In the straight-line start, five S2Rs take 1-5 and then, with all six
// pending, an LDCU of UR9 shares the fifth's 5 and an S2R shares the
// fourth's 4; a wait retires 1-5.
// * `read_later`: that wait reads the S2Rs' registers, not UR9, which is read
//   after it. Without the stack-pointer load the S2Rs take 0-4, the LDCU the
//   freed 5, waited on at its reader, and the other share stays (HeCBench
//   maxpool3d at sm_100 and sm_120; before, several shares kept the kernel).
// * Otherwise the wait reads UR9: no share is split, both stay (HeCBench
//   hadamard's kernels at sm_100 and sm_120).
Words two_shares_kernel(bool sp, bool read_later) {
  Words w = five_s2rs(sp, false);
  w.push_back({0x00007400ff0977acull, 0x08000800 | ctl(1, sp || read_later ? 5 : 4, 7, 0)});
  w.push_back({0x0000000000087919ull, 0x2500 | ctl(2, sp ? 4 : 3, 7, 0)});
  const unsigned wait = sp ? 0b111110 : 0b011111;
  const u64 reads_ur9 = 0x0000000905007c0cull, ur9_hi = 0x08706670;
  if (read_later) {
    w.push_back({0x0000000603057210ull, ctl(1, 7, 7, wait)});
    w.push_back({reads_ur9, ur9_hi | ctl(1, 7, 7, sp ? 0 : 0b100000)});
  } else {
    w.push_back({reads_ur9, ur9_hi | ctl(1, 7, 7, wait)});
  }
  return with_tail(w);
}

} // namespace

TEST(Refinalize, SeveralSharesTheLdcuReadAfterItsWaitTakesTheFreedIndex) {
  expect_rewritten_to(two_shares_kernel(true, true), two_shares_kernel(false, true));
}

TEST(Refinalize, SeveralSharesStayWithoutAnLdcuReadAfterItsWait) {
  expect_rewritten_to(two_shares_kernel(true, false), two_shares_kernel(false, false));
}

namespace {

// In the straight-line start four S2Rs take 1-4; three more take the
// stack-pointer load's 0 with 5 free. The wait after them reads R2-R5 and
// retires 1-4; the instruction after it reads R6-R8 and waits on 0. Without
// the stack-pointer load the four take 0-3, the first sharer takes 4 and the
// two others join the lowest index pending at them, 0, retired with it
// (llm.c's matmul_backward_bias kernels, HeCBench prna's calc_w).
Words three_sharers_kernel(bool sp) {
  Words w = {sp_load(sp)};
  push_shifted(w, sp, 4, kS2r, kS2rHi);
  w.push_back({0x0000000000067919ull, kS2rHi | ctl(1, sp ? 0 : 4, 7, 0)});
  w.push_back({0x0000000000077919ull, kS2rHi | ctl(1, 0, 7, 0)});
  w.push_back({0x0000000000087919ull, kS2rHi | ctl(2, 0, 7, 0)});
  w.push_back({0x0000000503027210ull, ctl(1, 7, 7, sp ? 0b011110 : 0b001111)});
  w.push_back({0x0000000807067210ull, ctl(1, 7, 7, sp ? 0b000001 : 0b010000)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, LaterStackPointerSharersWithFiveFreeJoinTheLowestPendingIndex) {
  expect_rewritten_to(three_sharers_kernel(true), three_sharers_kernel(false));
  EXPECT_TRUE(sass::verify_refinalized(bytes_of(three_sharers_kernel(true)), bytes_of(three_sharers_kernel(false))).ok);
}

namespace {

// In the straight-line start five S2Rs take 1-5; with all six pending an
// LDCU of UR9 shares 5 and an S2R of R7 the stack-pointer load's 0. The
// wait after them reads the S2Rs' registers and retires 1-5; UR9 is read
// next, and R7 after it, where ptxas waits on 0. Without the stack-pointer
// load the LDCU takes the freed 5, waited on at its reader, and the S2R
// shares it, retired there too (HeCBench minimod's target_inner_3d_kernel
// at sm_100; probe s22).
Words share_before_sharer_split_kernel(bool sp) {
  Words w = five_s2rs(sp, false);
  w.push_back({0x00007400ff0977acull, 0x08000800 | ctl(1, 5, 7, 0)});
  w.push_back({0x0000000000077919ull, 0x2100 | ctl(1, sp ? 0 : 5, 7, 0)});
  w.push_back({0x0000000603057210ull, ctl(1, 7, 7, sp ? 0b111110 : 0b011111)});
  w.push_back({0x0000000905007c0cull, 0x08706670 | ctl(1, 7, 7, sp ? 0 : 0b100000)});
  w.push_back({0x0000000307087210ull, ctl(1, 7, 7, sp ? 0b000001 : 0)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, StackPointerSharersJoinAShareSplitBeforeThem) {
  expect_rewritten_to(share_before_sharer_split_kernel(true), share_before_sharer_split_kernel(false));
  EXPECT_TRUE(sass::verify_refinalized(bytes_of(share_before_sharer_split_kernel(true)),
                                       bytes_of(share_before_sharer_split_kernel(false)))
                  .ok);
}

namespace {

// In the straight-line start an LDC of R2 and an LDCU of UR14 take 1, an
// LDCU of UR8 takes 2, and five global loads through R2 follow: three take
// 3-5, two share the LDCU's 2 (indices from 2 all pending). A wait retires
// 3-5, the next (reading the fourth load's R5) retires 2; a wait on the
// stack-pointer load comes before UR8's reader (0x8a5, bits 64-71). Without
// the stack-pointer load: the fourth load takes the freed 5 and the fifth
// joins it, and the LDCU, on 1, is waited on where ptxas waited for the
// stack-pointer load (HeCBench secp256k1 at sm_100 and sm_120: the sixteen
// loads of a field element at 0x40-0x130, UR8 read at 0x4d0, waited on at
// 0x4c0).
Words load_group_kernel(bool sp) {
  const u64 ldg = 0x0c1e1900;
  Words w = {sp_load(sp)};
  w.push_back({0x0000e000ff027b82ull, 0xa00 | ctl(1, sp ? 1 : 0, 7, 0)});
  w.push_back({0x00006b00ff0e77acull, 0x08000a00 | ctl(1, sp ? 1 : 0, 7, 0)});
  w.push_back({0x00007000ff0877acull, 0x08000a00 | ctl(1, sp ? 2 : 1, 7, 0)});
  w.push_back({0x0000200e02107981ull, ldg | ctl(4, sp ? 3 : 2, 7, sp ? 0b10 : 0b1)});
  w.push_back({0x0000000e02007981ull, ldg | ctl(4, sp ? 4 : 3, 7, 0)});
  w.push_back({0x0000240e02117981ull, ldg | ctl(4, sp ? 5 : 4, 7, 0)});
  w.push_back({0x0000040e02057981ull, ldg | ctl(4, sp ? 2 : 5, 7, 0)});
  w.push_back({0x0000280e02127981ull, ldg | ctl(4, sp ? 2 : 5, 7, 0)});
  w.push_back({0x0000000610107819ull, 0x00010e11 | ctl(2, 7, 7, sp ? 0b111000 : 0b011100)});
  w.push_back({0x0000000600007819ull, 0x00010e05 | ctl(2, 7, 7, sp ? 0b000100 : 0b100000)});
  w.push_back({0x03ffffff16557812ull, 0x078ec0ff | ctl(7, 7, 7, sp ? 0b000001 : 0b000010)});
  w.push_back({0x00000040050678a5ull, 0x0f8e0008 | ctl(6, 7, 7, 0)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, GlobalLoadsSharingAnLdcuIndexStayOneGroupOnTheFreedIndex) {
  expect_rewritten_to(load_group_kernel(true), load_group_kernel(false));
  EXPECT_TRUE(sass::verify_refinalized(bytes_of(load_group_kernel(true)), bytes_of(load_group_kernel(false))).ok);
}

namespace {

// In the straight-line start, an S2R, an S2R, an LDCU of UR8 and two S2Rs
// take 1-5; an LDC of R8 shares the LDCU's 3 with all six pending, and the
// wait after it reads R8 and retires 1-5. On the way to UR8's reader (a
// 0xc0c form, bits 32-39) come an IMAD with an immediate (0x824) and an
// ISETP (0x20c) whose general-register bytes hold 8. Without the
// stack-pointer load the LDC takes the freed 5 and the LDCU, on 2, is waited
// on at its reader (HeCBench pathfinder at sm_100: the LDCU at 0x30, the LDC
// at 0x60, UR8 read by the LDG at 0x100).
Words ldc_shares_ldcu_kernel(bool sp) {
  Words w = {sp_load(sp)};
  w.push_back({0x0000000000027919ull, kS2rHi | ctl(1, sp ? 1 : 0, 7, 0)});
  w.push_back({0x0000000000037919ull, kS2rHi | ctl(1, sp ? 2 : 1, 7, 0)});
  w.push_back({0x00007400ff0877acull, 0x08000800 | ctl(1, sp ? 3 : 2, 7, 0)});
  w.push_back({0x0000000000047919ull, kS2rHi | ctl(1, sp ? 4 : 3, 7, 0)});
  w.push_back({0x0000000000057919ull, kS2rHi | ctl(1, sp ? 5 : 4, 7, 0)});
  w.push_back({0x0000d800ff087b82ull, kLdcHi | ctl(2, sp ? 3 : 5, 7, 0)});
  w.push_back({0x0000000802077210ull, 0xff | ctl(1, 7, 7, sp ? 0b111110 : 0b111011)});
  w.push_back({0x0000000102077824ull, 0x08 | ctl(1, 7, 7, 0)});
  w.push_back({0x000000080a00720cull, 0x70 | ctl(1, 7, 7, 0)});
  w.push_back({0x0000000805007c0cull, 0x08706670 | ctl(1, 7, 7, sp ? 0 : 0b000100)});
  return with_tail(w);
}

} // namespace

// The general-register forms do not read UR8: the LDCU's reader is found
// past them, and the verifier accepts the wait moved there.
TEST(Refinalize, SharedLdcuWaitedOnAtItsReaderPastGeneralRegisterForms) {
  expect_rewritten_to(ldc_shares_ldcu_kernel(true), ldc_shares_ldcu_kernel(false));
  EXPECT_TRUE(sass::verify_refinalized(bytes_of(ldc_shares_ldcu_kernel(true)), bytes_of(ldc_shares_ldcu_kernel(false))).ok);
}

namespace {

// In the straight-line start, five S2Rs take 1-5 and a sixth shares 3 with
// all six pending; the wait after them retires 1-5. Without the stack-pointer
// load the five take 0-4 and the sixth keeps its share, on 2 (HeCBench
// jacobi's jacobi_step at sm_120: the S2R at 0x200 stays on the index of the
// producer at 0x1e0). After a branch the same share splits instead
// (PressureShareWhileTheStackPointerLoadIsPendingSplits).
Words straight_line_share_kernel(bool sp) {
  Words w = five_s2rs(sp, false);
  w.push_back({0x0000000000077919ull, 0x2100 | ctl(2, sp ? 3 : 2, 7, 0)});
  w.push_back({0x0000000503087210ull, ctl(1, 7, 7, sp ? 0b111110 : 0b011111)});
  return with_tail(w);
}

} // namespace

TEST(Refinalize, SingleShareInTheStraightLineStartStays) {
  expect_rewritten_to(straight_line_share_kernel(true), straight_line_share_kernel(false));
}
