/*
 * The built-in default foreground: a generated C source tree built with
 * make -jNCPU, cleaned between runs.  A real compile that needs only cc and
 * make, about 10-20 s a run on two cores.
 */
#ifndef CONTEST_FGTREE_H
#define CONTEST_FGTREE_H

#include <stddef.h>

#define FGTREE_NAME	"cctree-v1"

struct fgtree {
	char	*dir;		/* RESULTS_DIR/cctree-v1 */
	char	*argv[6];	/* make -s -C DIR -jN prog */
	char	*prepare[6];	/* make -s -C DIR clean */
	char	*command;	/* stable name stored in results */
	int	 generated;	/* 1 when this call wrote the tree */
};

/* Generate the tree under results_dir unless a complete one is there. */
int	fgtree_setup(const char *results_dir, long nproc, struct fgtree *,
	    char *err, size_t errlen);
void	fgtree_free(struct fgtree *);

#endif
