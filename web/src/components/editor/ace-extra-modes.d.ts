// ace ships these two modes without type declarations; they are only ever loaded for their effect.
declare module 'ace-builds/src-noconflict/mode-jsoniq';
declare module 'ace-builds/src-noconflict/mode-xquery';
