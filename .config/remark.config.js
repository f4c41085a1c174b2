// remark-cli's configuration for `npm run lint`: every Markdown link to a file of this repository, and every
// #heading anchor, must resolve (remark-validate-links, offline: http(s) links are never fetched). It lives in
// .config/ because the repository's top level is fixed (docs/architecture.md §1); `npm run lint` passes it with
// --rc-path. GFM (remark-gfm) so that links inside tables are read as GitHub renders them.
import remarkGfm from 'remark-gfm';
import remarkValidateLinks from 'remark-validate-links';

export default {
  plugins: [
    remarkGfm,
    // repository: false: no git remote is read, so links are checked as relative paths only, the same on every
    // machine and in CI.
    [remarkValidateLinks, { repository: false }],
  ],
};
