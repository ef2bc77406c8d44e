/*
 * types.c - the built-in file types of -t/-T/--type-list: the common
 * languages and formats, with the names and globs ripgrep 13 gives them.
 * Kept in name order (--type-list prints them so).
 */
#include <string.h>

#include "builtins/search/rg/rg.h"

static const rg_type types[] = {
    {"asm", "*.S,*.asm,*.s"},
    {"awk", "*.awk"},
    {"bazel", "*.BUILD,*.bazel,*.bazelrc,*.bzl,BUILD,WORKSPACE"},
    {"c", "*.[chH],*.[chH].in,*.cats"},
    {"clojure", "*.clj,*.cljc,*.cljs,*.cljx"},
    {"cmake", "*.cmake,CMakeLists.txt"},
    {"config", "*.cfg,*.conf,*.config,*.ini"},
    {"cpp", "*.[ChH],*.[ChH].in,*.[ch]pp,*.[ch]pp.in,*.[ch]xx,*.[ch]xx.in,*.cc,"
            "*.cc.in,*.hh,*.hh.in,*.inl"},
    {"cs", "*.cs"},
    {"css", "*.css,*.scss"},
    {"csv", "*.csv"},
    {"cython", "*.pxd,*.pxi,*.pyx"},
    {"d", "*.d"},
    {"dart", "*.dart"},
    {"diff", "*.diff,*.patch"},
    {"docker", "*Dockerfile*"},
    {"elixir", "*.eex,*.ex,*.exs"},
    {"elm", "*.elm"},
    {"erlang", "*.erl,*.hrl"},
    {"fish", "*.fish"},
    {"fortran", "*.F,*.F77,*.F90,*.F95,*.f,*.f77,*.f90,*.f95,*.pfo"},
    {"gn", "*.gn,*.gni"},
    {"go", "*.go"},
    {"gradle", "*.gradle"},
    {"groovy", "*.gradle,*.groovy"},
    {"h", "*.h,*.hpp"},
    {"haskell", "*.c2hs,*.cpphs,*.hs,*.hsc,*.lhs"},
    {"hs", "*.hs,*.lhs"},
    {"html", "*.ejs,*.htm,*.html"},
    {"java", "*.java,*.jsp,*.jspx,*.properties"},
    {"jinja", "*.j2,*.jinja,*.jinja2"},
    {"js", "*.js,*.jsx,*.vue"},
    {"json", "*.json,composer.lock"},
    {"jsonl", "*.jsonl"},
    {"julia", "*.jl"},
    {"kotlin", "*.kt,*.kts"},
    {"less", "*.less"},
    {"lisp", "*.el,*.jl,*.lisp,*.lsp,*.sc,*.scm"},
    {"lock", "*.lock,package-lock.json"},
    {"log", "*.log"},
    {"lua", "*.lua"},
    {"make", "*.mak,*.mk,[Gg][Nn][Uu]makefile,[Gg][Nn][Uu]makefile.am,[Gg][Nn]["
             "Uu]makefile.in,[Mm]akefile,[Mm]akefile.am,[Mm]akefile.in"},
    {"markdown", "*.markdown,*.md,*.mdown,*.mkdn"},
    {"matlab", "*.m"},
    {"md", "*.markdown,*.md,*.mdown,*.mkdn"},
    {"meson", "meson.build,meson_options.txt"},
    {"nim", "*.nim,*.nimble,*.nimf,*.nims"},
    {"nix", "*.nix"},
    {"objc", "*.h,*.m"},
    {"objcpp", "*.h,*.mm"},
    {"ocaml", "*.ml,*.mli,*.mll,*.mly"},
    {"org", "*.org,*.org_archive"},
    {"perl", "*.PL,*.perl,*.pl,*.plh,*.plx,*.pm,*.t"},
    {"php", "*.php,*.php3,*.php4,*.php5,*.phtml"},
    {"protobuf", "*.proto"},
    {"ps", "*.cdxml,*.ps1,*.ps1xml,*.psd1,*.psm1"},
    {"py", "*.py"},
    {"r", "*.R,*.Rmd,*.Rnw,*.r"},
    {"rdoc", "*.rdoc"},
    {"readme", "*README,README*"},
    {"rst", "*.rst"},
    {"ruby", "*.gemspec,*.rb,*.rbw,.irbrc,Gemfile,Rakefile,config.ru"},
    {"rust", "*.rs"},
    {"sass", "*.sass,*.scss"},
    {"scala", "*.sbt,*.scala"},
    {"sh", "*.bash,*.bashrc,*.csh,*.cshrc,*.ksh,*.kshrc,*.sh,*.tcsh,*.zsh,."
           "bash_login,.bash_logout,.bash_profile,.bashrc,.cshrc,.kshrc,.login,"
           ".logout,.profile,.tcshrc,.zlogin,.zlogout,.zprofile,.zshenv,.zshrc,"
           "bash_login,bash_logout,bash_profile,bashrc,profile,zlogin,zlogout,"
           "zprofile,zshenv,zshrc"},
    {"sql", "*.psql,*.sql"},
    {"swift", "*.swift"},
    {"tex", "*.bib,*.cls,*.dtx,*.ins,*.ltx,*.sty,*.tex"},
    {"tf", "*.tf"},
    {"toml", "*.toml,Cargo.lock"},
    {"ts", "*.ts,*.tsx"},
    {"txt", "*.txt"},
    {"verilog", "*.sv,*.svh,*.v,*.vh"},
    {"vhdl", "*.vhd,*.vhdl"},
    {"vim", "*.vim"},
    {"xml",
     "*.dtd,*.rng,*.sch,*.xhtml,*.xjb,*.xml,*.xml.dist,*.xsd,*.xsl,*.xslt"},
    {"yaml", "*.yaml,*.yml"},
    {"zig", "*.zig"},
    {"zsh", "*.zsh,.zlogin,.zlogout,.zprofile,.zshenv,.zshrc,zlogin,zlogout,"
            "zprofile,zshenv,zshrc"},
};

const rg_type *rg_types(size_t *n) {
  *n = sizeof types / sizeof types[0];
  return types;
}

const rg_type *rg_type_find(const char *name) {
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strcmp(types[i].name, name) == 0)
      return &types[i];
  return NULL;
}
