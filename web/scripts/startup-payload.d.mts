export type ManifestChunk = { file: string; src?: string; name?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
export type Build = {
  dist: string;
  manifest: Record<string, ManifestChunk>;
  chunks: Record<string, { name: string; modules: Record<string, number> }>;
};
export type PayloadFile = { file: string; kind: 'js' | 'css'; reason: string; raw: number; gzip: number };

export const StartupBudget: number;
export const defaultDist: string;
export const StartupScreens: { screen: string; modules: string[] }[];
export function gzipSize(content: Uint8Array | string): number;
export function readBuild(dist?: string): Build;
export function chunkOf(build: Build, moduleId: string): string;
export function startupPayload(build: Build): { files: PayloadFile[]; raw: number; gzip: number };
