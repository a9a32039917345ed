/** Page requested by a list or filter operation, after the spec's normalisation. */
export interface PageRequest {
  pageIndex: number;
  pageSize: number;
}

export const MAX_PAGE_SIZE = 1000;

function parsePositive(value: string | undefined): number | 'absent' | 'invalid' {
  if (value === undefined || value.trim() === '') return 'absent';
  if (!/^\s*\d+\s*$/.test(value)) return 'invalid';
  const n = Number(value);
  return n > 0 && Number.isSafeInteger(n) ? n : 'invalid';
}

/**
 * The spec's conventions table: pageIndex 0 or invalid → pageIndex 1 and pageSize 1000; pageSize 0 or invalid →
 * 1000 and pageIndex 1; pageSize above 1000 → 1000. Absent values mean pageIndex 1 and pageSize 1000.
 */
export function normalisePaging(pageIndex: string | undefined, pageSize: string | undefined): PageRequest {
  const index = parsePositive(pageIndex);
  const size = parsePositive(pageSize);
  if (index === 'invalid' || size === 'invalid') return { pageIndex: 1, pageSize: MAX_PAGE_SIZE };
  return {
    pageIndex: index === 'absent' ? 1 : index,
    pageSize: size === 'absent' ? MAX_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE),
  };
}

/** `Link` header value with `rel="next"` / `rel="prev"` where there are such pages, or undefined. */
export function pageLinks(url: URL, page: PageRequest, total: number): string | undefined {
  const links: string[] = [];
  const at = (index: number) => {
    const u = new URL(url);
    u.searchParams.set('pageIndex', String(index));
    u.searchParams.set('pageSize', String(page.pageSize));
    return `${u.pathname}${u.search}`;
  };
  if (page.pageIndex * page.pageSize < total) links.push(`<${at(page.pageIndex + 1)}>; rel="next"`);
  if (page.pageIndex > 1) {
    const last = Math.max(1, Math.ceil(total / page.pageSize));
    links.push(`<${at(Math.min(page.pageIndex - 1, last))}>; rel="prev"`);
  }
  return links.length ? links.join(', ') : undefined;
}
