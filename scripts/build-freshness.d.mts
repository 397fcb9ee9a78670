export declare const BUILD_INPUTS: readonly string[];
export declare const BUILD_OUTPUTS: readonly string[];
export declare function sourceFingerprint(root: string, inputs?: readonly string[]): string;
export declare function isBuildCurrent(root: string, fingerprint?: string, outputs?: readonly string[]): boolean;
export declare function buildWithStamp(root: string, build: () => boolean, fingerprint?: string): boolean;
