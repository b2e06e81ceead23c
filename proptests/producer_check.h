// SPDX-License-Identifier: GPL-2.0-only
// This file declares the check that a real producer wrote the tree it was
// given, judged by a peer (unsquashfs) rather than by the reader under
// test. The producers are not infallible: mksquashfs 4.5.1 with
// -always-use-fragments and duplicate detection now and then writes a
// fragment table entry that overlaps the next fragment block and the inode
// table (the host kernel reads EIO there, unsquashfs other bytes, the
// reader reports corruption). A property about the reader must not blame
// it for an image that does not hold its tree.
#ifndef SQUASHLAB_PROPTESTS_PRODUCER_CHECK_H_
#define SQUASHLAB_PROPTESTS_PRODUCER_CHECK_H_

#include <functional>
#include <string>

namespace squashlab::proptests {

// "" when unsquashfs extracts `image` into `scratch` (which must not exist)
// with every regular file, symlink and directory of `src` as it is in
// `src`; otherwise the first difference, or why unsquashfs failed.
// `scratch` is removed afterwards.
std::string PeerFindsImageDiffers(const std::string& image,
                                  const std::string& src,
                                  const std::string& scratch);

// Packs `src` into `image` with `pack` (which returns "" or why the
// producer failed) until the peer finds the image holds `src`, at most
// `tries` times (a producer's race is not repeated every time). Returns
// "" when an image holds `src`; "producer failed: ..." when `pack` failed;
// otherwise "the producer wrote an image that does not hold its tree
// (N tries): <the last difference>". `*repacked`, when given, counts the
// images thrown away.
std::string PackCheckedByPeer(const std::function<std::string()>& pack,
                              const std::string& image, const std::string& src,
                              const std::string& scratch, int tries,
                              int* repacked = nullptr);

inline bool IsProducerFault(const std::string& why) {
  return why.rfind("the producer wrote", 0) == 0;
}

}  // namespace squashlab::proptests

#endif  // SQUASHLAB_PROPTESTS_PRODUCER_CHECK_H_
