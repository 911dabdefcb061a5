import type { Locator, Page } from '@playwright/test';
import { expect, waitForApp, type BurrowServer, type TestUser, type UserSpec } from './fixtures';

/** The preferences a files test starts from; the server's defaults for everything else. */
export type FilesUserSpec = UserSpec & {
  viewMode?: 'list' | 'mosaic' | 'mosaic gallery';
  singleClick?: boolean;
  redirectAfterCopyMove?: boolean;
  sorting?: { by: string; asc: boolean };
};

/** Creates a user (list view unless asked otherwise) and sets the given preferences through the API. */
export async function filesUser(server: BurrowServer, makeUser: (spec?: UserSpec) => Promise<TestUser>, spec: FilesUserSpec = {}): Promise<TestUser> {
  const { viewMode, singleClick, redirectAfterCopyMove, sorting, ...userSpec } = spec;
  const user = await makeUser(userSpec);
  const data: Record<string, unknown> = { id: user.id };
  const which: string[] = [];
  for (const [key, value] of Object.entries({ viewMode, singleClick, redirectAfterCopyMove, sorting })) {
    if (value === undefined) continue;
    data[key] = value;
    which.push(key);
  }
  if (which.length > 0) {
    const token = await user.token();
    for (const field of which) {
      await server.apiOk('PUT', `/api/users/${user.id}`, { token, body: { what: 'user', which: [field], data } });
    }
  }
  return user;
}

/** Opens a folder of the files screen and waits for its listing (or its empty message). */
export async function openFolder(page: Page, folder: string): Promise<void> {
  const encoded = folder
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  await page.goto(`files/${encoded}/`);
  await waitForApp(page);
  await expect(listing(page).or(page.getByText('This folder is empty.'))).toBeVisible();
}

export function listing(page: Page): Locator {
  return page.getByRole('grid', { name: 'Folder contents' });
}

/** An item's link (what a user clicks) by its exact name. */
export function itemLink(page: Page, name: string): Locator {
  return listing(page).getByRole('link', { name, exact: true });
}

/** The element carrying an item's selection state (its row in the list, its tile in the mosaics). */
export function itemBox(page: Page, name: string): Locator {
  return itemLink(page, name).locator('xpath=ancestor::*[@aria-selected][1]');
}

export async function expectSelected(page: Page, names: string[], others: string[] = []): Promise<void> {
  for (const name of names) await expect(itemBox(page, name), `${name} selected`).toHaveAttribute('aria-selected', 'true');
  for (const name of others) await expect(itemBox(page, name), `${name} not selected`).toHaveAttribute('aria-selected', 'false');
}

/** Names of the items in the order the listing shows them. */
export async function shownNames(page: Page): Promise<string[]> {
  return listing(page).locator('[data-item-link]').evaluateAll((links) => links.map((link) => link.getAttribute('aria-label') ?? ''));
}

/** A top-bar action button by its label. */
export function action(page: Page, label: string): Locator {
  return page.getByRole('group', { name: 'File actions' }).getByRole('button', { name: label, exact: true });
}

/** An open dialog (or alert dialog) by its title. */
export function dialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title, exact: true }).or(page.getByRole('alertdialog', { name: title, exact: true }));
}

/** The value shown for a label in the info dialog's list of facts. */
export function infoValue(info: Locator, label: string): Locator {
  return info.locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);
}
