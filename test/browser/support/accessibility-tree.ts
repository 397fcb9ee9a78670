// The page as Chromium exposes it to assistive technology: names and roles the browser computes, not DOM text.
import { a11ySnapshot } from '@web/test-runner-commands';

/** A node of the accessibility snapshot (the fields the tests read). */
export interface AXNode {
  role: string;
  name?: string;
  description?: string;
  keyshortcuts?: string;
  invalid?: string;
  level?: number;
  children?: AXNode[];
}

/** Every node of the page's accessibility snapshot, in document order (groups and other plain nodes left out). */
export async function axNodes(): Promise<AXNode[]> {
  const all = (node: AXNode): AXNode[] => [node, ...(node.children ?? []).flatMap(all)];
  return all((await a11ySnapshot({})) as unknown as AXNode);
}

const LANDMARKS = new Set(['region', 'complementary', 'main', 'navigation', 'banner', 'contentinfo', 'form', 'search']);

/** The landmarks of the page, as `role name`, in the order a screen reader's landmark list gives them. */
export async function landmarks(): Promise<string[]> {
  return (await axNodes()).filter((node) => LANDMARKS.has(node.role)).map((node) => `${node.role} ${node.name ?? ''}`.trim());
}
