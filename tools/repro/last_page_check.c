// SPDX-License-Identifier: GPL-2.0-only
// Maps the last page of a file and prints the bytes that lie past its EOF,
// which a correct kernel fills with zeros; with a second file named, it also
// says where in that file those bytes come from. A static build of it is the
// check that run_in_qemu.sh runs inside a guest, where there is no python.
//   last_page_check FILE [OTHER]
// Exit status: 0 the bytes past EOF are zero, 1 they are not, 2 error.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// Reads all of PATH into a malloc'd buffer; NULL on error.
static unsigned char *read_all(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return NULL;
  unsigned char *buf = malloc(st.st_size + 1);
  size_t got = 0;
  while (buf && got < (size_t)st.st_size) {
    ssize_t n = read(fd, buf + got, st.st_size - got);
    if (n <= 0) break;
    got += n;
  }
  close(fd);
  *len = got;
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: %s FILE [OTHER]\n", argv[0]);
    return 2;
  }
  const char *path = argv[1];
  long page = sysconf(_SC_PAGESIZE);
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    perror(path);
    return 2;
  }
  size_t size = st.st_size;
  if (size == 0 || size % page == 0) {
    printf("%s: size %zu leaves no bytes past EOF in its last page\n", path,
           size);
    return 2;
  }
  off_t last = (size - 1) / page * page;
  const unsigned char *p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, last);
  if (p == MAP_FAILED) {
    perror("mmap");
    return 2;
  }
  size_t eof = size - last, past = page - eof;
  size_t nonzero = 0, first = 0, end = 0;
  for (size_t i = eof; i < (size_t)page; i++) {
    if (p[i]) {
      if (!nonzero++) first = i - eof;
      end = i - eof + 1;
    }
  }
  printf("%s: size %zu, last page at %lld\n", path, size, (long long)last);
  if (!nonzero) {
    printf("not affected: the %zu bytes past EOF are zero\n", past);
    return 0;
  }
  printf(
      "AFFECTED: %zu of the %zu bytes past EOF are not zero; "
      "first at EOF+%zu:",
      nonzero, past, first);
  for (size_t i = first; i < first + 16 && i < past; i++)
    printf(" %02x", p[eof + i]);
  printf("\n");
  // The whole run of bytes from the first non-zero one to the last.
  for (size_t i = first; i < end; i += 16) {
    printf("  EOF+%04zx:", i);
    for (size_t j = i; j < i + 16 && j < end; j++) printf(" %02x", p[eof + j]);
    printf("\n");
  }
  if (argc == 3) {
    size_t olen;
    unsigned char *other = read_all(argv[2], &olen);
    // Another file's tail starts a block, so a page, of that file: of the
    // places the bytes occur, one at a page boundary is the one to name.
    size_t run = end - first, places = 0, at = 0;
    int aligned = 0;
    for (const unsigned char *q = other; q && q + run <= other + olen;) {
      const unsigned char *hit =
          memmem(q, other + olen - q, p + eof + first, run);
      if (!hit) break;
      if (!places++ || (!aligned && (hit - other) % page == 0)) {
        at = hit - other;
        aligned = at % page == 0;
      }
      q = hit + 1;
    }
    if (places)
      printf("EOF+%zu..EOF+%zu are %s's bytes %zu..%zu%s\n", first, end - 1,
             argv[2], at, at + run - 1,
             aligned ? " (they start a page of it)" : "");
    else
      printf("EOF+%zu..EOF+%zu are not found in %s\n", first, end - 1, argv[2]);
    free(other);
  }
  return 1;
}
