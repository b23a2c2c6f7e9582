import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { ChevronDown, ChevronRight, Dot } from "lucide-react";
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgTreeNode } from "../../../shared/contracts/people";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { Loading, Section } from "../home/parts";
import { orgTreeQuery } from "./api";
import { countsText, OrgLoadError } from "./org-parts";
import { orgTypeName } from "./organizations-page";

/** An organisation and everything under it as a tree: schools, then each school's classes. */
export function HierarchyPage() {
  const { t } = useTranslation("admin");
  const { orgId } = useParams({ strict: false }) as { orgId: string };
  const tree = useQuery(orgTreeQuery(orgId));

  if (tree.isError) return <OrgLoadError error={tree.error} onRetry={() => tree.refetch()} />;
  return (
    <div>
      <PageHeader
        title={t("common:pages./app/admin/organizations/$orgId/hierarchy.title")}
        description={
          tree.data ? t("hierarchy.description", { name: tree.data.data.name }) : t("hierarchy.loading")
        }
        actions={
          <Link to="/app/admin/organizations" className={buttonClass("secondary")}>
            {t("hierarchy.allOrgs")}
          </Link>
        }
      />
      {tree.isPending && <Loading label={t("hierarchy.loadingTree")} rows={5} />}
      {tree.data && <OrgTree root={tree.data.data} />}
    </div>
  );
}

interface VisibleNode {
  node: OrgTreeNode;
  level: number;
  parentId: string | null;
  setSize: number;
  position: number;
}

/** The nodes on screen, in reading order, with what the tree pattern needs to know about each. */
function visibleNodes(root: OrgTreeNode, expanded: Set<string>): VisibleNode[] {
  const list: VisibleNode[] = [];
  const walk = (
    node: OrgTreeNode,
    level: number,
    parentId: string | null,
    setSize: number,
    position: number,
  ) => {
    list.push({ node, level, parentId, setSize, position });
    if (!expanded.has(node.sourcedId)) return;
    node.children.forEach((child, index) => {
      walk(child, level + 1, node.sourcedId, node.children.length, index + 1);
    });
  };
  walk(root, 1, null, 1, 1);
  return list;
}

function allParents(root: OrgTreeNode): string[] {
  const ids: string[] = [];
  const walk = (node: OrgTreeNode) => {
    if (node.children.length) ids.push(node.sourcedId);
    node.children.forEach(walk);
  };
  walk(root);
  return ids;
}

/**
 * The WAI-ARIA tree pattern: one tab stop; Up and Down move; Right opens or goes to the first
 * child; Left closes or goes to the parent; Home and End; Enter or Space open and close. The
 * focused node is the selected one, described beside the tree.
 */
function OrgTree({ root }: { root: OrgTreeNode }) {
  const { t } = useTranslation("admin");
  // The root and the organisations right under it start open; schools' classes start closed.
  const [expanded, setExpanded] = useState(
    () =>
      new Set([
        root.sourcedId,
        ...root.children
          .filter((child) => child.kind === "org" && child.children.some((c) => c.kind === "org"))
          .map((c) => c.sourcedId),
      ]),
  );
  const [focusedId, setFocusedId] = useState(root.sourcedId);
  const items = useRef(new Map<string, HTMLLIElement>());
  const hasFocusInside = useRef(false);
  const nodes = useMemo(() => visibleNodes(root, expanded), [root, expanded]);
  const focused = nodes.find((entry) => entry.node.sourcedId === focusedId) ?? nodes[0];

  useEffect(() => {
    if (hasFocusInside.current && focused) items.current.get(focused.node.sourcedId)?.focus();
  }, [focused]);

  const toggle = (id: string, open?: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open ?? !next.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    if (!focused) return;
    const index = nodes.indexOf(focused);
    const { node } = focused;
    const isOpen = expanded.has(node.sourcedId);
    const moveTo = (entry: VisibleNode | undefined) => entry && setFocusedId(entry.node.sourcedId);
    const actions: Record<string, () => void> = {
      ArrowDown: () => moveTo(nodes[index + 1]),
      ArrowUp: () => moveTo(nodes[index - 1]),
      Home: () => moveTo(nodes[0]),
      End: () => moveTo(nodes.at(-1)),
      ArrowRight: () => {
        if (!node.children.length) return;
        if (!isOpen) toggle(node.sourcedId, true);
        else moveTo(nodes[index + 1]);
      },
      ArrowLeft: () => {
        if (node.children.length && isOpen) toggle(node.sourcedId, false);
        else moveTo(nodes.find((entry) => entry.node.sourcedId === focused.parentId));
      },
      Enter: () => node.children.length && toggle(node.sourcedId),
      " ": () => node.children.length && toggle(node.sourcedId),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    hasFocusInside.current = true;
    action();
  }

  const renderNode = (entry: VisibleNode) => {
    const { node } = entry;
    const isOpen = expanded.has(node.sourcedId);
    const isFocused = focused?.node.sourcedId === node.sourcedId;
    const labelId = `tree-${node.sourcedId}`;
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: the tree's own keyboard handler (on the list) covers every key
      <li
        key={node.sourcedId}
        ref={(element) => {
          if (element) items.current.set(node.sourcedId, element);
          else items.current.delete(node.sourcedId);
        }}
        role="treeitem"
        aria-labelledby={labelId}
        aria-expanded={node.children.length ? isOpen : undefined}
        aria-selected={isFocused}
        aria-level={entry.level}
        aria-setsize={entry.setSize}
        aria-posinset={entry.position}
        tabIndex={isFocused ? 0 : -1}
        onFocus={(event) => {
          if (event.target !== event.currentTarget) return;
          hasFocusInside.current = true;
          setFocusedId(node.sourcedId);
        }}
        // The tree's keyboard handler covers the keys; a click selects and opens or closes.
        onClick={(event) => {
          if ((event.target as Element).closest('[role="treeitem"]') !== event.currentTarget) return;
          hasFocusInside.current = true;
          setFocusedId(node.sourcedId);
          if (node.children.length) toggle(node.sourcedId);
        }}
        className="outline-none focus-visible:[&>div]:outline-2 focus-visible:[&>div]:outline-brand-600"
      >
        <div
          className={`flex cursor-pointer items-center gap-2 rounded-lg py-1.5 pr-2 ${isFocused ? "bg-brand-50 dark:bg-slate-800" : "hover:bg-slate-50 dark:hover:bg-slate-800/60"}`}
          style={{ paddingLeft: `${(entry.level - 1) * 1.25 + 0.25}rem` }}
        >
          <span
            aria-hidden="true"
            className="inline-flex w-5 justify-center text-slate-500 dark:text-slate-400"
          >
            {node.children.length ? (
              isOpen ? (
                <ChevronDown className="size-4" />
              ) : (
                <ChevronRight className="size-4" />
              )
            ) : (
              <Dot className="size-4" />
            )}
          </span>
          <span id={labelId} className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2">
            <span className="font-semibold">{node.name}</span>
            <span className="text-xs text-slate-600 dark:text-slate-400">
              {node.kind === "class" ? t("hierarchy.class") : orgTypeName(node.type)}
            </span>
            <span className="text-xs text-slate-600 tabular-nums dark:text-slate-400">
              {countsText(node.counts)}
            </span>
          </span>
        </div>
      </li>
    );
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <Section
        title={t("hierarchy.tree")}
        actions={
          <div className="flex gap-2">
            <button
              type="button"
              className={buttonClass("secondary")}
              onClick={() => setExpanded(new Set(allParents(root)))}
            >
              {t("hierarchy.expandAll")}
            </button>
            <button
              type="button"
              className={buttonClass("secondary")}
              onClick={() => {
                setExpanded(new Set([root.sourcedId]));
                setFocusedId(root.sourcedId);
              }}
            >
              {t("hierarchy.collapseAll")}
            </button>
          </div>
        }
      >
        <ul
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA tree pattern is a list with role tree
          role="tree"
          aria-label={t("hierarchy.treeLabel", { name: root.name })}
          onKeyDown={onKeyDown}
          className="text-sm"
        >
          {/* One flat list, each item with its level, position and set size: nested groups would
              make an open item's visible text (its whole branch) differ from its name. */}
          {nodes.map(renderNode)}
        </ul>
      </Section>
      {focused && <NodeDetails node={focused.node} />}
    </div>
  );
}

function NodeDetails({ node }: { node: OrgTreeNode }) {
  const { t } = useTranslation("admin");
  const facts = [
    { key: "students", value: node.counts.students },
    { key: "guides", value: node.counts.guides },
    ...(node.kind === "org" ? [{ key: "classes", value: node.counts.classes }] : []),
  ];
  return (
    <Section
      title={node.name}
      description={`${node.kind === "class" ? t("hierarchy.class") : orgTypeName(node.type)}${node.identifier ? ` · ${node.identifier}` : ""}`}
      className="lg:sticky lg:top-4 lg:self-start"
    >
      <div aria-live="polite">
        <dl className="grid grid-cols-3 gap-3">
          {facts.map((fact) => (
            <div key={fact.key} className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
              <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">
                {t(`hierarchy.facts.${fact.key}`)}
              </dt>
              <dd className="text-xl font-extrabold tabular-nums">{fact.value}</dd>
            </div>
          ))}
        </dl>
        {node.kind === "org" && (
          <Link
            to="/app/admin/org-explorer/$orgId"
            params={{ orgId: node.sourcedId }}
            search={{ tab: "overview" }}
            className={buttonClass("primary", "mt-4 inline-block")}
          >
            {t("hierarchy.explore", { name: node.name })}
          </Link>
        )}
      </div>
    </Section>
  );
}
