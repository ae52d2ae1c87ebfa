/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The built-in default foreground: a generated C source tree built with
 * make -jNCPU, cleaned between runs.  A real compile that needs only cc and
 * make, about 10-20 s a run on two cores.
 */
#ifndef CONTEST_BUILTIN_H
#define CONTEST_BUILTIN_H

#include <stddef.h>

#define BUILTIN_TREE	"cctree-v1"

struct builtin_job {
	char	*dir;		/* RESULTS_DIR/cctree-v1, for messages */
	int	 dir_fd;	/* the tree as checked: where make runs */
	const char *results_dir;
	char	*argv[8];	/* make -s -f Makefile -jN, in dir_fd */
	char	*prepare[8];	/* make -s -f Makefile clean, in dir_fd */
	char	*command;	/* stable name stored in results */
	int	 generated;	/* 1 when this call wrote the tree */
	int	 restored;	/* 1 when it differed and was written again */
	int	 refused;	/* 1 when it is not ours to trust */
	char	 differs[256];	/* what differed, when restored */
	char	 sha256[65];	/* of what the generator writes: the job's identity */
};

/*
 * Make sure the tree under results_dir (open on results_fd, as
 * trust_walk() checked it) is exactly what the generator
 * writes (build outputs aside) before it is run: write it when missing,
 * write it again when a file differs or an unknown one is there (a
 * GNUmakefile, which make would read first); refuse, with why in err,
 * a tree that is not ours to trust or to mend.
 */
int	builtin_setup(int results_fd, const char *results_dir, long nproc,
	    struct builtin_job *, char *err, size_t errlen);
void	builtin_free(struct builtin_job *);

#endif
