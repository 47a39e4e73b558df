#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Every file path that a comment or a document names exists in the repository.

Reads the user documents (README.md, docs/, bench/README.md, the packages' READMEs)
whole, and the comments of the sources (include/, src/, tools/, bench/, tests/, examples/,
python/, bindings/, cmake/ and the CMake files: // and /* */ in C-like files, # in shell,
Python and CMake) and takes from them every word that names a file of this project:
  - a library file (.hpp, .ipp, .cl), with or without folders: `engine/tree_updater.hpp` must end
    the path of a file here (include/merklize/engine/tree_updater.hpp), `resident_tree.hpp` be
    the name of one;
  - any other file under one of the repository's top folders (`bench/startup_gpu.sh`,
    `tests/layers/check_layers.py`), which must be there;
  - a bare source or script name (.cpp, .sh, .py), which must be the name of a file here.
Other projects' files (Plonky3's .rs, the system's .h), build outputs, absolute paths, shell
variables and placeholders (kernels/FILE.cl, a one-letter h.cl) are left alone, and so is
CHANGELOG.md, whose entries name files as they were then; outside_paths.txt, beside
this file, lists the few names of other projects that look like ours. Prints each stale name with
where it is and exits 1 if there is one.
    check_paths.py [REPOSITORY]     (default: two folders above this file)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), '..', '..'))
EXTENSIONS = ('hpp', 'ipp', 'cpp', 'c', 'h', 'cl', 'py', 'sh', 'md', 'cmake', 'rs', 'go', 'toml',
              'json', 'txt', 'in')
NAME = re.compile(r'(?<![\w./$~-])((?:[\w.+-]+/)*[\w+-]+(?:\.[\w-]+)*\.(?:%s))(?![\w/-])'
                  % '|'.join(EXTENSIONS))
DOCUMENTS = ('README.md', 'docs', 'bench/README.md', 'python/README.md',
             'bindings/go/README.md', 'bindings/rust/README.md')
SOURCES = ('include', 'src', 'tools', 'bench', 'tests', 'examples', 'python', 'bindings', 'cmake',
           'CMakeLists.txt', 'Makefile')
C_LIKE = ('.hpp', '.ipp', '.cpp', '.c', '.h', '.cl', '.rs', '.go')
HASH_COMMENTED = ('.sh', '.py', '.cmake', '.txt', '.toml', 'Makefile')
LIBRARY_FILES = ('.hpp', '.ipp', '.cl')
SOURCE_FILES = ('.cpp', '.sh', '.py')


def repository_files():
    listed = subprocess.run(['git', '-C', ROOT, 'ls-files', '-co', '--exclude-standard'],
                            capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout:
        files = listed.stdout.split()
    else:  # not a git checkout (an exported tree): walk it
        files = [os.path.relpath(os.path.join(d, f), ROOT)
                 for d, subdirs, names in os.walk(ROOT) for f in names
                 if not any(part.startswith(('.', 'build')) for part in d[len(ROOT):].split(os.sep))]
    return sorted(f for f in files if os.path.exists(os.path.join(ROOT, f)))


def comments(path, text):
    """The comment text of a source file, with each piece's line number."""
    if path.endswith(C_LIKE):
        for m in re.finditer(r'//[^\n]*|/\*.*?\*/', text, re.S):
            yield text.count('\n', 0, m.start()) + 1, m.group(0)
    elif path.endswith(HASH_COMMENTED) or os.path.basename(path) == 'Makefile':
        in_docstring = False
        for number, line in enumerate(text.split('\n'), 1):
            if path.endswith('.py') and line.count('"""') % 2 == 1:
                in_docstring = not in_docstring
                yield number, line
            elif in_docstring:
                yield number, line
            elif '#' in line:
                yield number, line[line.index('#'):]


def main():
    files = repository_files()
    names = set(files) | {os.path.dirname(f) for f in files}
    basenames = {os.path.basename(f) for f in files}
    outside_list = os.path.join(ROOT, 'tests', 'docs', 'outside_paths.txt')
    outside = set()
    if os.path.exists(outside_list):
        outside = {l.strip() for l in open(outside_list) if l.strip() and not l.startswith('#')}

    top_folders = {f.split('/')[0] for f in files if '/' in f}

    def exists(name):
        name = name.rstrip('.')
        if name in outside:
            return True
        if '/' not in name:
            return name in basenames
        return name in names or any(f.endswith('/' + name) for f in names)

    def checked(name):
        """Whether NAME is a name of this project's files (the docstring's three kinds)."""
        last = name.split('/')[-1]
        stem = last.split('.')[0]
        if (re.search(r'[A-Z]{3,}', stem) or len(stem) == 1 or last.startswith('_')
                or name.startswith(('build', '.', '~')) or '*' in name):
            return False  # a placeholder (FILE.cl, *_command.cpp), a build output, a hidden path
        if name.endswith(LIBRARY_FILES):
            return True
        if '/' in name:
            return name.split('/')[0] in top_folders
        return name.endswith(SOURCE_FILES)

    stale = []
    for path in files:
        if path.startswith(('tests/vectors/', 'tests/fuzz_corpus/', 'dev/')):
            continue
        is_document = any(path == d or path.startswith(d + '/') for d in DOCUMENTS) \
            and path.endswith('.md')
        is_source = any(path == s or path.startswith(s + '/') for s in SOURCES)
        if not (is_document or is_source):
            continue
        try:
            text = open(os.path.join(ROOT, path), encoding='utf-8').read()
        except (UnicodeDecodeError, IsADirectoryError):
            continue
        if is_document:
            text = re.sub(r'https?://\S+|github:\S+', ' ', text)
            pieces = enumerate(text.split('\n'), 1)
        else:
            pieces = comments(path, text)
        for number, piece in pieces:
            piece = re.sub(r'https?://\S+|github:\S+', ' ', piece)
            for m in NAME.finditer(piece):
                name = m.group(1)
                if checked(name) and not exists(name):
                    stale.append('%s:%d: %s' % (path, number, name))
    for line in stale:
        print(line)
    if stale:
        print('FAILED: %d names of files that do not exist (fix the name, or list a name of '
              'another project in tests/docs/outside_paths.txt)' % len(stale))
        return 1
    print('ok: every file named in the comments and documents exists')
    return 0


if __name__ == '__main__':
    sys.exit(main())
